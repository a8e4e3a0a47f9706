// No source file of src/ outside its data tables exceeds 400 lines (issue 26): a file that grows
// past it holds more than one concern and is split along its seams (docs/DEVELOPING.md).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAX_LINES = 400;

/** Tables of data, not code: every console text in both languages; the database's row types. */
const DATA_TABLES = new Set(['src/console/i18n.ts', 'src/db/schema.ts']);

test(`every source file under src/ but the data tables has at most ${MAX_LINES} lines`, () => {
  const sources = fs
    .readdirSync(path.join(ROOT, 'src'), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|js|css)$/.test(entry.name))
    .map((entry) => path.relative(ROOT, path.join(entry.parentPath, entry.name)).replaceAll(path.sep, '/'));
  assert.ok(sources.length > 100, `found only ${sources.length} source files`);
  const long = sources
    .filter((file) => !DATA_TABLES.has(file))
    .map((file) => ({ file, lines: fs.readFileSync(path.join(ROOT, file), 'utf8').split('\n').length - 1 }))
    .filter(({ lines }) => lines > MAX_LINES);
  assert.deepEqual(long, []);
  for (const table of DATA_TABLES) assert.ok(sources.includes(table), `${table} is gone: drop it from DATA_TABLES`);
});
