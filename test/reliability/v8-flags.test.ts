// `serve` re-executes itself with the server's V8 memory flags (src/server/v8-flags.ts):
// the same process, now started with them; flags the user gave are kept, not overridden. The
// re-executed process finds the modules in the compile cache (bin/content-site.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { missingServerEnv, missingServerFlags, SERVER_ENV, serverV8Flags } from '../../src/server/v8-flags.ts';
import { killChild, seededDb, startChild, type ChildServer } from './child-server.ts';

const SQLITE_FLAGS = ['--max-semi-space-size=4', '--max-old-space-size=160'];

test('missingServerFlags: only the flags the process was not started with', () => {
  assert.deepEqual(missingServerFlags([], ''), SQLITE_FLAGS);
  assert.deepEqual(missingServerFlags(['--max-semi-space-size=32', '--max-old-space-size=1024'], ''), []);
  assert.deepEqual(missingServerFlags([], '--max_semi_space_size=2 --enable-source-maps --max-old-space-size=300'), []);
  assert.deepEqual(missingServerFlags(['--cpu-prof'], '--max-old-space-size=512'), ['--max-semi-space-size=4']);
  assert.deepEqual(missingServerFlags(['--cpu-prof'], ''), SQLITE_FLAGS);
});

test('serverV8Flags: a young generation of 16 MB on PostgreSQL, 4 MB on SQLite', () => {
  assert.deepEqual(serverV8Flags('postgres://db/site'), ['--max-semi-space-size=16', '--max-old-space-size=160']);
  assert.deepEqual(serverV8Flags('postgresql://db/site'), ['--max-semi-space-size=16', '--max-old-space-size=160']);
  assert.deepEqual(serverV8Flags('sqlite:data/site.db'), SQLITE_FLAGS);
  assert.deepEqual(serverV8Flags(undefined), SQLITE_FLAGS);
  assert.deepEqual(missingServerFlags([], '--max-old-space-size=512', 'postgres://db/site'), [
    '--max-semi-space-size=16',
  ]);
});

test('missingServerEnv: only the allocator settings the environment does not give', () => {
  assert.deepEqual(missingServerEnv({}), { MALLOC_ARENA_MAX: '2', MALLOC_MMAP_THRESHOLD_: '131072' });
  assert.deepEqual(missingServerEnv({ MALLOC_ARENA_MAX: '8' }), { MALLOC_MMAP_THRESHOLD_: '131072' });
  assert.deepEqual(missingServerEnv({ MALLOC_ARENA_MAX: '8', MALLOC_MMAP_THRESHOLD_: '0' }), {});
});

/**
 * In a process started with 16 MB semi-spaces: the young generation of a thread asking for 4 MB
 * (resourceLimits), and the serving thread's, in MB, once both have filled theirs.
 */
function youngGenerations(sizedByThreads: boolean): { thread: number; serving: number } {
  // Run in either thread: fills the young generation, then says its size.
  const filled = `(() => { const kept = []; for (let i = 0; i < 2e6; i++) kept.push({ i, s: 'v' + i });
    return Math.round(v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 1048576); })()`;
  const script = `
    import v8 from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { threadsSizeTheirYoungGeneration } from ${JSON.stringify(new URL('../../src/server/v8-flags.ts', import.meta.url).href)};
    if (${sizedByThreads}) threadsSizeTheirYoungGeneration();
    const code = "const v8 = await import('node:v8'); (await import('node:worker_threads')).parentPort.postMessage(" + ${JSON.stringify(filled)} + ")";
    const thread = await new Promise((resolve, reject) =>
      new Worker(code, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 4 } }).once('message', resolve).once('error', reject));
    console.log(JSON.stringify({ thread, serving: ${filled} }));`;
  const out = execFileSync(process.execPath, ['--max-semi-space-size=16', '--input-type=module', '-e', script]);
  return JSON.parse(String(out));
}

test("worker threads size their own young generation; the serving thread keeps the flag's", () => {
  assert.ok(youngGenerations(false).thread > 16, 'the flag sizes every thread until cleared');
  const { thread, serving } = youngGenerations(true);
  assert.ok(thread <= 4, `a thread asking for 4 MB: ${thread} MB`);
  assert.ok(serving > 16, `the serving thread: ${serving} MB`);
});

/** The environment of a running process, from /proc. */
function environmentOf(pid: number): Record<string, string> {
  return Object.fromEntries(
    fs
      .readFileSync(`/proc/${pid}/environ`, 'utf8')
      .split('\0')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
}

test('the serving process runs with the server V8 flags, under the pid it was started as', {
  skip: process.platform !== 'linux',
}, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const server = await startChild(t);
  try {
    const argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of SQLITE_FLAGS) assert.ok(argv.includes(flag), `${flag} in ${argv.join(' ')}`);
    assert.ok(argv.includes('serve'));
    const env = environmentOf(server.pid);
    for (const [name, value] of Object.entries(SERVER_ENV)) assert.equal(env[name], value, name);
    const res = await fetch(`${server.url}/en/cms-json/`);
    assert.equal(res.status, 200);
  } finally {
    await killChild(server);
    await t.close();
  }
});

test('a value given by the user is kept', { skip: process.platform !== 'linux' }, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const server = await startChild(t, { NODE_OPTIONS: '--max-semi-space-size=2', MALLOC_ARENA_MAX: '4' });
  try {
    const argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(!argv.some((a) => a.startsWith('--max-semi-space-size')), argv.join(' '));
    assert.ok(argv.includes('--max-old-space-size=160'), argv.join(' '));
    assert.equal(environmentOf(server.pid).MALLOC_ARENA_MAX, '4');
  } finally {
    await killChild(server);
    await t.close();
  }
});

/** Node's debug lines of the compile cache: each process and thread says where its cache is, then what it found there. */
const CACHE_DEBUG = { NODE_DEBUG_NATIVE: 'COMPILE_CACHE' };
const START_TS_FOUND = /retrieving transpile cache for StrippedTypeScript \S+\/src\/server\/start\.ts\.\.\.success/;

/** The debug lines from the `nth` start of a process or thread on (0: the first). */
async function cacheLines(server: ChildServer, nth: number): Promise<string> {
  const lines = () =>
    server
      .output()
      .split('[compile cache] resolved path')
      .slice(nth + 1)
      .join('');
  for (let waited = 0; !START_TS_FOUND.test(lines()) && waited < 5_000; waited += 50)
    await new Promise((r) => setTimeout(r, 50));
  return lines();
}

test('the re-executed server finds every module in the compile cache, on the first start too', {
  skip: process.platform !== 'linux',
}, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  const server = await startChild(t, { NODE_COMPILE_CACHE: cache, ...CACHE_DEBUG });
  try {
    // The command's process comes first; the serving process (and its threads) after it.
    const serving = await cacheLines(server, 1);
    assert.match(server.output(), /no transpile cache for StrippedTypeScript/, 'the first process strips the types');
    assert.match(serving, START_TS_FOUND);
    // A worker thread's entry (a template worker's) is first loaded by the serving process.
    const stripped = [...serving.matchAll(/no transpile cache for StrippedTypeScript (\S+)/g)].map((m) => m[1]!);
    assert.deepEqual(
      stripped.filter((file) => !file.endsWith('-worker.ts')),
      [],
      'the serving process strips none of its modules',
    );
  } finally {
    await killChild(server);
    await t.close();
    fs.rmSync(cache, { recursive: true, force: true });
  }
});

test('a server started with the flags given (not re-executed) writes the compile cache once it listens', {
  skip: process.platform !== 'linux',
}, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'compile-cache-'));
  const given = { NODE_OPTIONS: SQLITE_FLAGS.join(' '), ...SERVER_ENV, NODE_COMPILE_CACHE: cache, ...CACHE_DEBUG };
  try {
    const first = await startChild(t, given);
    await killChild(first); // SIGKILL: no exit of any kind, so only a write while it ran counts
    assert.doesNotMatch(first.output(), START_TS_FOUND, 'started with nothing in the cache');
    const second = await startChild(t, given);
    await killChild(second);
    assert.match(await cacheLines(second, 0), START_TS_FOUND);
  } finally {
    await t.close();
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
