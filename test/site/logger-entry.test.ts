// defineLogger and loggerEntry: an entry names its logger's slug and one of its message keys,
// checked by the compiler (each @ts-expect-error line fails `npm run typecheck` should it ever compile).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defineLogger, loggerEntry, type LoggerDef } from '../../src/site/activity.ts';

const testLogger = defineLogger({
  slug: 'TestLogger',
  name: { en: 'Test', de: 'Test' },
  capability: 'read',
  messages: {
    thing_saved: { en: 'Saved {id}', de: '{id} gespeichert' },
    thing_removed: { en: 'Removed {id}', de: '{id} entfernt' },
  },
  search: {
    label: { en: 'Things', de: 'Dinge' },
    options: [{ label: { en: 'Saved', de: 'Gespeichert' }, messageKeys: ['thing_saved'] }],
  },
});

test('loggerEntry builds the entry of a message of the logger, with its context, level and date', () => {
  assert.deepEqual(loggerEntry(testLogger, 'thing_saved', { id: 7 }), {
    logger: 'TestLogger',
    messageKey: 'thing_saved',
    context: { id: 7 },
  });
  assert.deepEqual(
    loggerEntry(testLogger, 'thing_removed', undefined, { level: 'warning', date: '2026-01-02 03:04:05' }),
    {
      logger: 'TestLogger',
      messageKey: 'thing_removed',
      level: 'warning',
      date: '2026-01-02 03:04:05',
    },
  );
});

test('a message key the logger lacks does not compile; a defined logger is still a LoggerDef', () => {
  // @ts-expect-error: not a message of testLogger
  const wrong = () => loggerEntry(testLogger, 'thing_lost');
  assert.equal(typeof wrong, 'function');
  const badSearch = () =>
    defineLogger({
      slug: 'X',
      name: { en: 'X', de: 'X' },
      capability: 'read',
      messages: { a: { en: 'A', de: 'A' } },
      // @ts-expect-error: the search options name a message the logger lacks
      search: { label: { en: 'X', de: 'X' }, options: [{ label: { en: 'B', de: 'B' }, messageKeys: ['b'] }] },
    });
  assert.equal(typeof badSearch, 'function');
  const catalogue: LoggerDef[] = [testLogger];
  assert.equal(catalogue.length, 1);
});
