// `serve` re-executes itself with the server's V8 memory flags (src/server/v8-flags.ts):
// the same process, now started with them; flags the user gave are kept, not overridden.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { missingServerFlags, SERVER_V8_FLAGS } from '../../src/server/v8-flags.ts';
import { killChild, seededDb, startChild } from './child-server.ts';

test('missingServerFlags: only the flags the process was not started with', () => {
  assert.deepEqual(missingServerFlags([], ''), SERVER_V8_FLAGS);
  assert.deepEqual(missingServerFlags(['--max-semi-space-size=32', '--max-old-space-size=1024'], ''), []);
  assert.deepEqual(missingServerFlags([], '--max_semi_space_size=2 --enable-source-maps --max-old-space-size=300'), []);
  assert.deepEqual(missingServerFlags(['--cpu-prof'], '--max-old-space-size=512'), ['--max-semi-space-size=16']);
  assert.deepEqual(missingServerFlags(['--cpu-prof'], ''), SERVER_V8_FLAGS);
});

test('the serving process runs with the server V8 flags, under the pid it was started as', {
  skip: process.platform !== 'linux',
}, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const server = await startChild(t);
  try {
    const argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    for (const flag of SERVER_V8_FLAGS) assert.ok(argv.includes(flag), `${flag} in ${argv.join(' ')}`);
    assert.ok(argv.includes('serve'));
    const res = await fetch(`${server.url}/en/cms-json/`);
    assert.equal(res.status, 200);
  } finally {
    await killChild(server);
    await t.close();
  }
});

test('a value given by the user is kept', { skip: process.platform !== 'linux' }, async () => {
  const { t } = await seededDb({ name: 'sqlite' });
  const server = await startChild(t, { NODE_OPTIONS: '--max-semi-space-size=2' });
  try {
    const argv = fs.readFileSync(`/proc/${server.pid}/cmdline`, 'utf8').split('\0');
    assert.ok(!argv.some((a) => a.startsWith('--max-semi-space-size')), argv.join(' '));
    assert.ok(argv.includes('--max-old-space-size=160'), argv.join(' '));
  } finally {
    await killChild(server);
    await t.close();
  }
});
