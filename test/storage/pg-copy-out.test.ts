// COPY … TO STDOUT read row by row (src/db/pg-copy-out.ts): every field as PostgreSQL holds it,
// whatever it holds, and errors as rejections.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import pg from 'pg';
import { copyOut, type CopyFields } from '../../src/db/pg-copy-out.ts';
import { PG_URL } from '../support/db.ts';

/** Texts COPY's format escapes or could mistake: its separators, its null, backslashes, multi-byte characters. */
const TEXTS = [
  'plain',
  '',
  'a\tb',
  'line\nbreak\r\n',
  'back\\slash \\ and \\\\ two',
  '\\N',
  'N\\',
  '\b\f\v\u0001',
  'ünïcødé 日本語 🙂',
  '\\t is not a tab',
];

describe('COPY … TO STDOUT row by row (pg-copy-out.ts)', { skip: !PG_URL && 'TEST_DATABASE_URL is not set' }, () => {
  let client: pg.Client;
  before(async () => {
    client = new pg.Client({ connectionString: PG_URL! });
    await client.connect();
    await client.query('create temporary table copied (n integer, t text, u text)');
    for (const [n, t] of TEXTS.entries()) await client.query('insert into copied values ($1, $2, $3)', [n, t, null]);
    await client.query('insert into copied values (null, null, $1)', ['last']);
  });
  after(() => client.end());

  test('each row in order, each field as stored (null as null)', async () => {
    const rows: CopyFields[] = [];
    await copyOut(client, 'select n, t, u from copied order by n nulls last', (fields) => rows.push([...fields]));
    assert.deepEqual(rows, [...TEXTS.map((t, n) => [String(n), t, null]), [null, null, 'last']]);
  });

  test('a failing query rejects, and the connection serves the next one', async () => {
    await assert.rejects(
      copyOut(client, 'select 1 / (n - 3) from copied', () => {}),
      /division by zero/,
    );
    await assert.rejects(
      copyOut(client, 'select nothing from copied', () => {}),
      /nothing/,
    );
    const { rows } = await client.query('select count(*)::int as n from copied');
    assert.equal(rows[0].n, TEXTS.length + 1);
  });

  test('an error thrown while taking a row rejects once the copy ends, and the connection serves the next one', async () => {
    let seen = 0;
    await assert.rejects(
      copyOut(client, 'select n from copied order by n', () => {
        if (++seen === 2) throw new Error('the second row is refused');
      }),
      /the second row is refused/,
    );
    assert.equal(seen, 2, 'no row is taken after the refusal');
    const { rows } = await client.query('select 1 as one');
    assert.equal(rows[0].one, 1);
  });
});
