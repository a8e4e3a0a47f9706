// JsonList bodies (src/rest/json-list.ts): sent as they are read, they are the very text
// JSON.stringify gives of the answer read into arrays.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonList, jsonChunks, materialized } from '../../src/rest/json-list.ts';

/** A list of the items' texts in the given slices. */
const listOf = (...slices: unknown[][]) =>
  new JsonList(async function* () {
    for (const slice of slices) yield slice.map((item) => JSON.stringify(item));
  });

async function text(value: unknown, indent = 0): Promise<string> {
  let out = '';
  for await (const chunk of jsonChunks(value, indent)) out += chunk;
  return out;
}

describe('JsonList bodies', () => {
  const answer = () => ({
    date_range: { from: '2025-01-01', to: '2025-12-31' },
    summary: { uploads: 3, total: 3, skipped: undefined, fn: () => 1 },
    details: {
      uploads: listOf([{ id: 3, context: { a: 'ä "x"' } }, { id: 2 }], [], [{ id: 1, n: null }]),
      edits: listOf(),
      deletions: listOf([], []),
    },
    lists: [1, undefined, listOf([true]), { nested: listOf(['z']) }],
    ['__proto__' as string]: 'a key, not a prototype',
    empty: {},
  });

  test('the chunks sent are the JSON text of the answer read into arrays', async () => {
    const whole = await materialized(answer());
    assert.deepEqual((whole as { details: { uploads: unknown[] } }).details.uploads, [
      { id: 3, context: { a: 'ä "x"' } },
      { id: 2 },
      { id: 1, n: null },
    ]);
    assert.deepEqual((whole as { lists: unknown[] }).lists, [1, undefined, [true], { nested: ['z'] }]);
    assert.equal(await text(answer()), JSON.stringify(whole));
    assert.equal(await text(answer(), 4), JSON.stringify(whole, null, 4), '_pretty');
    assert.equal(await text(listOf([], [{ a: [] }], [{}, 2])), '[{"a":[]},{},2]');
    assert.equal(await text(listOf([], []), 4), '[]');
    assert.ok(Object.hasOwn(whole as object, '__proto__'));
    assert.equal(Object.getPrototypeOf(whole), Object.prototype);
  });

  test('mapItems changes each item as it is read (`_fields` on a list sent as it is read)', async () => {
    const list = listOf([{ id: 1, a: 'x', b: 'y' }], [{ id: 2, a: 'z' }]);
    const picked = list.mapItems((item) => ({ id: (item as { id: number }).id }));
    assert.deepEqual(await picked.toArray(), [{ id: 1 }, { id: 2 }]);
    assert.deepEqual(
      await list.toArray(),
      [
        { id: 1, a: 'x', b: 'y' },
        { id: 2, a: 'z' },
      ],
      'the list itself unchanged',
    );
  });

  test('a long list comes in several chunks, each read when it is asked for', async () => {
    let read = 0;
    const items = Array.from({ length: 3000 }, (_, i) => ({ id: i, text: 'x'.repeat(100) }));
    const list = new JsonList(async function* () {
      for (let i = 0; i < items.length; i += 500) {
        read += 500;
        yield items.slice(i, i + 500).map((item) => JSON.stringify(item));
      }
    });
    const chunks = jsonChunks({ details: list });
    const first = await chunks.next();
    assert.ok(!first.done && first.value.startsWith('{"details":[{"id":0,'));
    assert.ok(read < items.length, `only the slices of the first chunk are read (${read})`);
    let rest = first.value;
    for await (const chunk of chunks) rest += chunk;
    assert.equal(rest, JSON.stringify({ details: items }));
  });
});
