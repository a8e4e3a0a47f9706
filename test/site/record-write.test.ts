// recordWrite: the activity-log entry of a committed write; a failed log write goes to the
// process log and never becomes the caller's error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { pino } from 'pino';
import { recordWrite, type ActivityEntry, type ActivityOrigin } from '../../src/site/activity.ts';

const ENTRY: ActivityEntry = { logger: 'TestLogger', messageKey: 'thing_saved', context: { id: 7 } };
const ORIGIN: ActivityOrigin = { user: null, ip: '192.0.2.1', rest: true };

function recordingLog() {
  const errors: { obj: Record<string, unknown>; msg: string }[] = [];
  const log = pino({ level: 'silent' });
  log.error = ((obj: Record<string, unknown>, msg: string) => errors.push({ obj, msg })) as unknown as typeof log.error;
  return { log, errors };
}

test('recordWrite passes the entry and its origin to the activity log', async () => {
  const seen: [ActivityEntry, ActivityOrigin][] = [];
  const { log, errors } = recordingLog();
  const activity = { log: async (entry: ActivityEntry, origin: ActivityOrigin) => (seen.push([entry, origin]), 1) };
  await recordWrite({ activity, log }, ENTRY, ORIGIN);
  assert.deepEqual(seen, [[ENTRY, ORIGIN]]);
  assert.deepEqual(errors, []);
});

test('recordWrite reports a failed log write in the process log and resolves', async () => {
  const failure = new Error('disk full');
  const { log, errors } = recordingLog();
  await recordWrite({ activity: { log: async () => Promise.reject(failure) }, log }, ENTRY, ORIGIN);
  assert.deepEqual(errors, [
    { obj: { err: failure, logger: 'TestLogger', messageKey: 'thing_saved' }, msg: 'activity log write failed' },
  ]);
});
