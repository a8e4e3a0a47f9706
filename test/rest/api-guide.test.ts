// docs/api.md against the route registry: every route with exactly its methods in the tables of
// its namespace (a new route without its line fails here); and the project's documents refer to
// nothing outside the repository (a clone has nothing beside it).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { RestApi } from '../../src/rest/api.ts';
import { NAMESPACES } from '../../src/modules.ts';
import type { AppServices } from '../../src/site/services.ts';

const GUIDE = fs.readFileSync('docs/api.md', 'utf8');

/** The registry without a database: the API only needs the options' change hook to be built. */
function registry() {
  const app = { options: { onChange() {} }, config: { siteUrl: 'http://localhost:8080' } } as unknown as AppServices;
  return new RestApi(app, NAMESPACES).registry;
}

test('docs/api.md lists every route of the registry with its methods', () => {
  const rows = GUIDE.split('\n').filter((line) => /^\| [A-Z, ]+ \| `\//.test(line));
  const documented = new Map<string, Set<string>>();
  for (const row of rows) {
    const [, methods, cell] = row.split('|').map((c) => c.trim());
    const key = cell!.replace(/`/g, '');
    const set = documented.get(key) ?? new Set<string>();
    for (const m of methods!.split(',')) set.add(m.trim());
    documented.set(key, set);
  }
  const missing: string[] = [];
  for (const route of registry().routes) {
    const template = route.pattern.replace(/\(\?P<(\w+)>[^)]*\)/g, '{$1}');
    const methods = route.endpoints.flatMap((e) => e.methods).sort();
    const listed = documented.get(template);
    // Namespaces that offer only their index are named in one sentence.
    if (
      !listed &&
      route.namespace &&
      route.pattern === `/${route.namespace}` &&
      route.endpoints.length === 1 &&
      GUIDE.includes(`\`${template}\``)
    ) {
      const ns = registry().routesOf(route.namespace)!;
      if (ns.length === 1) continue;
    }
    if (!listed) missing.push(`${methods.join(', ')} ${template}`);
    else assert.deepEqual([...listed].sort(), methods, `${template}: methods in docs/api.md`);
    documented.delete(template);
  }
  assert.deepEqual(missing, [], 'routes missing from docs/api.md');
  assert.deepEqual([...documented.keys()], [], 'docs/api.md lists routes the registry does not have');
});

function markdownFiles(dir: string, keep: (file: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => path.join(dir, f))
    .filter((f) => f.endsWith('.md') && keep(f));
}

test('README, docs and DECISIONS files refer only to the repository', () => {
  const files = [
    'README.md',
    ...markdownFiles('docs', () => true),
    ...markdownFiles('src', (f) => path.basename(f) === 'DECISIONS.md'),
  ];
  assert.ok(files.includes('docs/api.md') && files.includes('src/namespaces/history/DECISIONS.md'));
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    assert.doesNotMatch(
      text,
      /\.\.\/shared|shared\/spec|(contract|conventions|rest-core|plugins|history)\.md/,
      `${file} names a file outside the repository`,
    );
    // Markdown links: to a file of the repository, an anchor, or an outside site (not a sibling folder).
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^(https?:|mailto:|#)/.test(target!)) continue;
      const resolved = path.normalize(path.join(path.dirname(file), target!.split('#')[0]!));
      assert.ok(
        !resolved.startsWith('..') && fs.existsSync(resolved),
        `${file}: link ${target} leads outside the repository or nowhere`,
      );
    }
  }
});
