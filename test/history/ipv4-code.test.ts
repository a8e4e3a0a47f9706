// The log's columns keep a stored IPv4 address (`a.b.c.x`, model/ip.ts anonymizeIp) as a
// number (columns/store.ts ipv4Code), read character by character; any other text stays a
// string. It must take exactly the canonical forms: the regular expression below says which.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ipv4Code } from '../../src/namespaces/history/columns/store.ts';

/** The forms as a regular expression says them: three canonical decimal octets, then `.x`. */
function reference(addr: string): number | null {
  const m = /^(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.(0|[1-9]\d{0,2})\.x$/.exec(addr);
  if (!m) return null;
  const [a, b, c] = [m[1], m[2], m[3]].map(Number) as [number, number, number];
  return a > 255 || b > 255 || c > 255 ? null : (a << 16) | (b << 8) | c;
}

test('canonical stored IPv4 addresses and nothing else', () => {
  const cases = [
    '192.168.1.x',
    '0.0.0.x',
    '255.255.255.x',
    '10.0.255.x',
    '256.1.1.x',
    '1.2.3.4',
    '01.2.3.x',
    '1.00.3.x',
    '1..3.x',
    '.1.2.x',
    '1.2.3.x.x',
    '1.2.3.X',
    '1.2.3.',
    '1.2.x',
    '1.2.3.4.x',
    '1234.2.3.x',
    '١.2.3.x',
    '2001:db8::x',
    '',
    'x',
    '.x',
    '1.2.3x',
    '1.2.3.xx',
  ];
  for (const addr of cases) assert.equal(ipv4Code(addr), reference(addr), JSON.stringify(addr));
  assert.equal(ipv4Code('192.168.1.x'), (192 << 16) | (168 << 8) | 1);
});

test('random texts of digits, dots and x read as the regular expression says', () => {
  let seed = 28;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff);
  const alphabet = '0123456789..x';
  for (let n = 0; n < 200_000; n++) {
    const length = 5 + (next() % 12);
    let addr = '';
    for (let i = 0; i < length; i++) addr += alphabet[next() % alphabet.length];
    if (n % 2) addr = `${next() % 300}.${next() % 300}.${next() % 300}.x`;
    assert.equal(ipv4Code(addr), reference(addr), JSON.stringify(addr));
  }
});
