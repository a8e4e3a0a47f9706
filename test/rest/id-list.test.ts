import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseIdList } from '../../src/rest/id-list.ts';

test('parseIdList: comma-separated digits, spaces around pieces allowed, no empty piece', () => {
  assert.deepEqual(parseIdList('3,5,8'), [3, 5, 8]);
  assert.deepEqual(parseIdList(' 3, 5 ,8 '), [3, 5, 8]);
  assert.deepEqual(parseIdList('0,007'), [0, 7]);
  assert.deepEqual(parseIdList('99999999999999999999'), [Number.MAX_SAFE_INTEGER]);
  for (const bad of ['', ' ', ',', '1,,2', ',1', '1,', '1 2', '1,a', '-1', '1.5', '+2'])
    assert.equal(parseIdList(bad), null, bad);
});
