// The import graph of src/: no cycles (type imports included), the kernel never imports a
// feature, features reach each other only through a feature's api.ts, and the hosts reach the
// features only through the module list (src/modules.ts). See docs/DEVELOPING.md, "Layout".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** Layers of src/, by path (relative to the repository, with forward slashes). */
type Layer = { kind: 'kernel' } | { kind: 'host' } | { kind: 'feature'; name: string; dir: string };

const KERNEL_DIRS = ['src/rest/', 'src/db/', 'src/auth/', 'src/site/'];
const KERNEL_FILES = new Set([
  'src/config.ts',
  'src/util.ts',
  // The CLI's vocabulary, as src/rest/types.ts is the routes': modules contribute commands built
  // with it (SiteModule.commands), so it belongs to the kernel, not to the CLI host.
  'src/cli/command.ts',
  'src/cli/args.ts',
  'src/cli/input.ts',
  'src/cli/generate.ts',
]);
const FEATURE_DIRS = ['src/pages/', 'src/web/', 'src/console/', 'src/import/wordpress/'];
const HOST_DIRS = ['src/server/', 'src/cli/'];
const HOST_FILES = new Set(['src/app.ts', 'src/modules.ts']);

/** Host files a feature may use: they import nothing of ours (the importer re-runs node with the server's V8 flags). */
const SELF_CONTAINED_HOST_FILES = new Set(['src/server/v8-flags.ts']);

/**
 * Host → feature imports outside the module list, each with its reason. The HTTP adapter mounts
 * the HTML front ends (public pages, login pages, console) and the session-cookie authentication
 * of REST requests: Fastify routes and hooks, which SiteModule does not describe; it takes them
 * from the features' api.ts. The API reference page is an HTML page of the same kind (the login
 * pages' headers, their session cookie).
 */
const HOST_TO_FEATURE_API: Record<string, string[]> = {
  'src/server/http.ts': ['pages', 'web', 'console'],
  'src/server/api-docs.ts': ['web'],
};

export function layerOf(file: string): Layer {
  if (KERNEL_FILES.has(file) || KERNEL_DIRS.some((d) => file.startsWith(d))) return { kind: 'kernel' };
  if (HOST_FILES.has(file) || HOST_DIRS.some((d) => file.startsWith(d))) return { kind: 'host' };
  const ns = /^src\/namespaces\/([^/]+)\//.exec(file);
  if (ns) return { kind: 'feature', name: ns[1]!, dir: `src/namespaces/${ns[1]}/` };
  const dir = FEATURE_DIRS.find((d) => file.startsWith(d));
  if (dir) return { kind: 'feature', name: dir.split('/').at(-2)!, dir };
  throw new Error(`${file}: no layer (add it to the kernel, a host or a feature)`);
}

/** Relative import specifiers of a module: static, `import type`, re-exports and dynamic `import()`. */
export function importsOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  const specs: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const re of patterns) for (const m of code.matchAll(re)) if (m[1]!.startsWith('.')) specs.push(m[1]!);
  return specs;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) return sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

type Graph = Map<string, string[]>;

function importGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles('src')) {
    const specs = importsOf(fs.readFileSync(path.join(ROOT, file), 'utf8'));
    graph.set(
      file,
      specs.map((spec) => path.posix.normalize(path.posix.join(path.posix.dirname(file), spec))),
    );
  }
  return graph;
}

/** The import cycles (strongly connected components of more than one file, or a file importing itself). */
export function cycles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let next = 0;
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? []).includes(v)) found.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** Why an import breaks the layering, or null when it is allowed. */
export function violation(from: string, to: string): string | null {
  const a = layerOf(from);
  const b = layerOf(to);
  if (b.kind === 'kernel') return null;
  if (a.kind === 'kernel') return 'the kernel imports only the kernel';
  if (a.kind === 'feature') {
    if (b.kind === 'host') return SELF_CONTAINED_HOST_FILES.has(to) ? null : 'a feature never imports a host';
    if (b.name === a.name) return null;
    return to === `${b.dir}api.ts` ? null : `another feature only through its api.ts (${b.dir}api.ts)`;
  }
  // a host
  if (b.kind === 'host') return null;
  if (from === 'src/modules.ts') return to === `${b.dir}module.ts` ? null : 'the module list imports module.ts files';
  if (HOST_TO_FEATURE_API[from]?.includes(b.name) && to === `${b.dir}api.ts`) return null;
  return 'a host reaches the features through src/modules.ts';
}

const graph = importGraph();

test('every relative import of src/ names an existing file', () => {
  const missing = [...graph].flatMap(([from, targets]) =>
    targets.filter((to) => !graph.has(to)).map((to) => `${from} → ${to}`),
  );
  assert.deepEqual(missing, []);
});

test('the import graph of src/ has no cycles (type imports included)', () => {
  assert.deepEqual(cycles(graph), []);
});

test('kernel imports kernel; features import others through api.ts; hosts reach features through modules.ts', () => {
  const wrong = [...graph].flatMap(([from, targets]) =>
    targets.flatMap((to) => {
      const why = graph.has(to) ? violation(from, to) : null;
      return why ? [`${from} → ${to}: ${why}`] : [];
    }),
  );
  assert.deepEqual(wrong, []);
});

/** The files `from` reaches through its imports (itself included). */
function reachable(graph: Graph, from: string): Set<string> {
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const to of graph.get(file) ?? []) visit(to);
  };
  visit(from);
  return seen;
}

test("the activity log's read path never reaches its write path (history/read → history/write)", () => {
  const wrong = [...graph.keys()]
    .filter((file) => file.startsWith('src/namespaces/history/read/'))
    .flatMap((file) =>
      [...reachable(graph, file)]
        .filter((to) => to.startsWith('src/namespaces/history/write/'))
        .map((to) => `${file} → … → ${to}`),
    );
  assert.deepEqual(wrong, []);
});

test('the checks see what they check', () => {
  // Type imports, re-exports, dynamic imports and multi-line import lists are all edges.
  assert.deepEqual(
    importsOf(
      [
        "import type { A } from './a.ts';",
        "export { b } from '../b.ts';",
        "const c = await import('./c.ts');",
        "import {\n  d,\n} from './d.ts';",
        "// import x from './commented.ts';",
        "import fs from 'node:fs';",
      ].join('\n'),
    ),
    ['./a.ts', '../b.ts', './d.ts', './c.ts'],
  );
  assert.deepEqual(
    cycles(
      new Map([
        ['a', ['b']],
        ['b', ['a']],
        ['c', ['a']],
      ]),
    ),
    [['a', 'b']],
  );
  assert.equal(violation('src/rest/types.ts', 'src/app.ts'), 'the kernel imports only the kernel');
  assert.equal(
    violation('src/site/loggers.ts', 'src/namespaces/sched/logger.ts'),
    'the kernel imports only the kernel',
  );
  assert.match(violation('src/namespaces/oembed/embed.ts', 'src/pages/store.ts')!, /api\.ts/);
  assert.equal(violation('src/namespaces/oembed/embed.ts', 'src/pages/api.ts'), null);
  assert.match(violation('src/cli/seed.ts', 'src/namespaces/sched/seed.ts')!, /modules\.ts/);
  assert.equal(violation('src/modules.ts', 'src/namespaces/sched/module.ts'), null);
});
