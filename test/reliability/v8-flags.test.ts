// `serve` re-executes itself with the server's V8 memory flags (src/server/v8-flags.ts):
// the same process, now started with them; flags the user gave are kept, not overridden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { missingServerEnv, missingServerFlags, SERVER_ENV, serverV8Flags } from '../../src/server/v8-flags.ts';
import { killChild, seededDb, startChild } from './child-server.ts';

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
