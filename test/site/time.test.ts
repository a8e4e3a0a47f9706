// Local times from cached zone offsets agree with Intl's own formatting, across transitions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { utcToZone, zoneOffsetHours } from '../../src/site/time.ts';

function intlLocal(ms: number, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(ms));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')} ${get('hour')}:${get('minute')}:${get('second')}`;
}

test('utcToZone matches Intl for whole, half and quarter-hour zones, around DST changes', () => {
  for (const zone of [
    'Europe/Berlin',
    'America/New_York',
    'Asia/Kathmandu',
    'Australia/Lord_Howe',
    'America/St_Johns',
    'UTC',
  ]) {
    // Every 7 h 13 min 17 s over three years: every minute of the hour is hit, transitions too.
    for (let ms = Date.UTC(2024, 0, 1); ms < Date.UTC(2027, 0, 1); ms += 26_000_000 + 17_000) {
      const utc = new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
      assert.equal(utcToZone(utc, zone), intlLocal(ms, zone), `${zone} ${utc}`);
    }
  }
  // The minutes right before and after Berlin's spring-forward and fall-back.
  assert.equal(utcToZone('2026-03-29 00:59:59', 'Europe/Berlin'), '2026-03-29 01:59:59');
  assert.equal(utcToZone('2026-03-29 01:00:00', 'Europe/Berlin'), '2026-03-29 03:00:00');
  assert.equal(utcToZone('2026-10-25 00:59:59', 'Europe/Berlin'), '2026-10-25 02:59:59');
  assert.equal(utcToZone('2026-10-25 01:00:00', 'Europe/Berlin'), '2026-10-25 02:00:00');
});

test('zoneOffsetHours', () => {
  assert.equal(zoneOffsetHours('Europe/Berlin', new Date(Date.UTC(2026, 0, 15))), 1);
  assert.equal(zoneOffsetHours('Europe/Berlin', new Date(Date.UTC(2026, 6, 15))), 2);
  assert.equal(zoneOffsetHours('Asia/Kathmandu', new Date(Date.UTC(2026, 6, 15))), 5.75);
  assert.equal(zoneOffsetHours('America/St_Johns', new Date(Date.UTC(2026, 0, 15))), -3.5);
});
