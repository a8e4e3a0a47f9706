// The console's browser code: TypeScript modules and the style sheet under src/console/client,
// bundled by esbuild into dist/console/ (build output, never committed).
//
// Nothing is run by hand: `npm install` builds (the `prepare` script), and the server checks
// when it starts that the output is newer than every source and builds again if not (so
// `npm start`, `npm test`, `node --test …` and a bench's child servers all serve current code).
// Output names carry a content hash (`console-3F2A….js`), so files are written idempotently and
// served as immutable; manifest.json, replaced atomically, names the entry files. Several
// processes building at once write the same bytes under the same names.
//
//   node src/console/build.ts            build
//   node src/console/build.ts --if-stale build only when a source is newer than the output
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const CLIENT_DIR = path.join(HERE, 'client');
export const OUT_DIR = path.resolve(HERE, '..', '..', 'dist', 'console');
const MANIFEST = path.join(OUT_DIR, 'manifest.json');
const ENTRIES = ['console.ts', 'console.css'];

/** Entry name (`console.js`, `console.css`) → output file name. */
export type Manifest = Record<string, string>;

function newestSource(dir: string): number {
  let newest = fs.statSync(fileURLToPath(import.meta.url)).mtimeMs;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) newest = Math.max(newest, fs.statSync(path.join(entry.parentPath, entry.name)).mtimeMs);
  }
  return newest;
}

export function isStale(): boolean {
  try {
    return fs.statSync(MANIFEST).mtimeMs < newestSource(CLIENT_DIR);
  } catch {
    return true;
  }
}

function writeAtomically(file: string, contents: Uint8Array | string): void {
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  fs.writeFileSync(tmp, contents);
  fs.renameSync(tmp, file);
}

export async function buildClient(): Promise<Manifest> {
  const esbuild = await import('esbuild');
  const result = await esbuild.build({
    entryPoints: ENTRIES.map((e) => path.join(CLIENT_DIR, e)),
    outdir: OUT_DIR,
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['chrome120', 'firefox120', 'safari17'],
    minify: true,
    sourcemap: 'linked',
    entryNames: '[name]-[hash]',
    chunkNames: 'chunk-[hash]',
    assetNames: '[name]-[hash]',
    metafile: true,
    write: false,
    logLevel: 'warning',
  });
  fs.mkdirSync(OUT_DIR, { recursive: true });
  for (const file of result.outputFiles) writeAtomically(file.path, file.contents);
  // Files of earlier builds go (a running server holds what it serves in memory).
  const current = new Set(result.outputFiles.map((f) => path.basename(f.path)));
  for (const name of fs.readdirSync(OUT_DIR)) {
    if (!current.has(name) && name !== 'manifest.json' && !name.endsWith('.tmp'))
      fs.rmSync(path.join(OUT_DIR, name), { force: true });
  }
  const manifest: Manifest = {};
  for (const [out, meta] of Object.entries(result.metafile.outputs)) {
    if (!meta.entryPoint) continue;
    const entry = path.basename(meta.entryPoint).replace(/\.ts$/, '.js');
    manifest[entry] = path.basename(out);
  }
  writeAtomically(MANIFEST, JSON.stringify(manifest, null, 2));
  return manifest;
}

export function readManifest(): Manifest {
  return JSON.parse(fs.readFileSync(MANIFEST, 'utf8')) as Manifest;
}

/** The current build: built first when a source is newer than the output. */
export async function ensureClientBuild(): Promise<Manifest> {
  return isStale() ? buildClient() : readManifest();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const manifest = process.argv.includes('--if-stale') ? await ensureClientBuild() : await buildClient();
  console.log(`console client: ${Object.values(manifest).join(', ')} in ${path.relative(process.cwd(), OUT_DIR)}`);
}
