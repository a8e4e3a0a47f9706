// The writing side: occasions ids, initiators, anonymised addresses, context, throttling.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { fixtureUser, listParams } from './fixture.ts';
import { phpJsonEncode } from '../../src/namespaces/history/model/php-json.ts';
import {
  anonymizeIp,
  ipFilterCondition,
  isIpFilterPattern,
  proxyAddressContext,
} from '../../src/namespaces/history/model/ip.ts';
import { occasionsIdOf, prepareEvent } from '../../src/namespaces/history/model/event.ts';
import { listEvents } from '../../src/namespaces/history/read/list.ts';
import { LOGGER_CATALOGUE } from '../../src/modules.ts';

const LOGGERS = LOGGER_CATALOGUE.sorted;
import { interpolate, renderEvents } from '../../src/namespaces/history/read/render.ts';
import { storableText } from '../../src/namespaces/history/model/context.ts';
import { loadRows } from '../../src/namespaces/history/read/paging.ts';
import { FAILED_LOGIN_LIMIT } from '../../src/namespaces/history/write/group.ts';
import { searchOptions } from '../../src/namespaces/history/reports/search-options.ts';

const md5 = (s: string) => crypto.createHash('md5').update(s).digest('hex');

describe('encoding and addresses', () => {
  test('PHP json_encode: escaped slashes, \\u escapes, no spaces', () => {
    assert.equal(
      phpJsonEncode({ a: 'x/y', b: 'é€😀', c: 1, d: [true, null], e: '"\\\n' }),
      '{"a":"x\\/y","b":"\\u00e9\\u20ac\\ud83d\\ude00","c":1,"d":[true,null],"e":"\\"\\\\\\n"}',
    );
  });

  test('occasions id of a REST custom entry ignores the message text (reference §3.1)', () => {
    const a = occasionsIdOf(
      'CustomEntryLogger',
      'info',
      'Added a custom entry: {message}',
      { message: 'one' },
      'custom_entry_added',
    );
    const b = occasionsIdOf(
      'CustomEntryLogger',
      'info',
      'Added a custom entry: {message}',
      { message: 'two' },
      'custom_entry_added',
    );
    assert.equal(a, b);
    assert.equal(
      a,
      md5(
        '{"logger":"CustomEntryLogger","level":"info","message":"Added a custom entry: {message}","_message_key":"custom_entry_added"}',
      ),
    );
    const withNote = occasionsIdOf(
      'CustomEntryLogger',
      'info',
      'Added a custom entry: {message}',
      { message: 'x', note: 'n' },
      'custom_entry_added',
    );
    assert.equal(
      withNote,
      md5(
        '{"logger":"CustomEntryLogger","level":"info","message":"Added a custom entry: {message}","note":"n","_message_key":"custom_entry_added"}',
      ),
    );
    assert.equal(
      occasionsIdOf('SimpleUserLogger', 'warning', 't', { _occasionsID: 'k' }, 'x'),
      md5('{"_occasionsID":"k","_loggerSlug":"SimpleUserLogger"}'),
    );
  });

  test('IP anonymisation as the reference', () => {
    assert.equal(anonymizeIp('192.168.1.77'), '192.168.1.x');
    assert.equal(anonymizeIp('::ffff:10.1.2.3'), '10.1.2.x');
    assert.equal(anonymizeIp('2001:db8:85a3::8a2e:370:7334'), '2001:db8:85a3::');
    assert.equal(anonymizeIp('not an ip'), '');
    assert.deepEqual(proxyAddressContext({ 'x-forwarded-for': '8.8.8.8, 10.0.0.1, 1.1.1.1' }), {
      _server_http_x_forwarded_for_0: '8.8.8.x',
      _server_http_x_forwarded_for_2: '1.1.1.x',
    });
  });

  test('ip_address patterns', () => {
    for (const ok of ['1.2.3.4', '1.2.3.x', '1.2.x.x', '2001:db8::']) assert.ok(isIpFilterPattern(ok), ok);
    for (const bad of ['1.2.3', 'x.1.2.3', '1.2.3.4.5', 'xyz', '1.2.3.4/24', ''])
      assert.ok(!isIpFilterPattern(bad), bad);
    assert.deepEqual(ipFilterCondition('1.2.x.x'), { like: true, pattern: '1.2.%.%', from: '1.2.', below: '1.2/' });
    assert.deepEqual(ipFilterCondition('10.20.30.X'), {
      like: true,
      pattern: '10.20.30.%',
      from: '10.20.30.',
      below: '10.20.30/',
    });
    assert.deepEqual(ipFilterCondition('1.2.x.4'), { like: true, pattern: '1.2.%.4', from: '1.2.', below: '1.2/' });
    assert.deepEqual(ipFilterCondition('1.2.3.4'), { like: false, pattern: '1.2.3.4' });
  });

  test('interpolation: one pass, unknown placeholders stay', () => {
    const ctx = new Map<string, string | null>([
      ['a', '{b}'],
      ['b', 'B'],
      ['n', null],
    ]);
    assert.equal(interpolate('{a} {b} {c} {n}', ctx), '{b} B {c} {n}');
  });

  test('every catalogue message has an English and a German template with the same placeholders', () => {
    for (const def of LOGGERS) {
      assert.ok(def.name.en && def.name.de, def.slug);
      for (const [key, text] of Object.entries(def.messages)) {
        const names = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
        assert.deepEqual(names(text.de), names(text.en), `${def.slug}:${key}`);
      }
    }
  });

  test('every logger with messages describes its message types in both languages, with keys it has', () => {
    const own = new Set([
      'ContentLogger',
      'SchedLogger',
      'SliderxLogger',
      'I18nConfigLogger',
      'I18nStringsLogger',
      'I18nTmLogger',
    ]);
    for (const def of LOGGERS) {
      if (!Object.keys(def.messages).length) {
        assert.equal(def.search, undefined, def.slug);
        continue;
      }
      const search = def.search;
      assert.ok(search, `${def.slug} has no search description`);
      for (const text of [
        search.label,
        ...(search.labelAll ? [search.labelAll] : []),
        ...search.options.map((o) => o.label),
      ]) {
        assert.ok(text.en && text.de && text.en !== '' && text.de !== '', def.slug);
      }
      const keys = search.options.flatMap((o) => o.messageKeys);
      for (const key of keys) assert.ok(def.messages[key], `${def.slug}:${key}`);
      // The site's own loggers offer every one of their messages as a filter.
      if (own.has(def.slug)) assert.deepEqual([...new Set(keys)].sort(), Object.keys(def.messages).sort(), def.slug);
    }
    assert.equal(LOGGERS.filter((d) => own.has(d.slug)).length, own.size);
  });
});

for (const target of dbTargets()) {
  describe(`activity log writes (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(() => t.close());

    test('_date, _initiator and _occasionsID steer the write and are not stored in the context', async () => {
      const id = await t.app.activity.log(
        {
          logger: 'SimpleLogger',
          messageKey: 'steered',
          context: { _date: '2025-01-02 03:04:05', _initiator: 'cms_cli', _occasionsID: 'k1', keep: 'x' },
        },
        { user: null, ip: '' },
      );
      const row = await t.app.db
        .selectFrom('history_events')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.date, '2025-01-02 03:04:05');
      assert.equal(row.initiator, 'cms_cli');
      assert.equal(row.occasions_id, md5('{"_occasionsID":"k1","_loggerSlug":"SimpleLogger"}'));
      const { context } = await t.app.db
        .selectFrom('history_event_contexts')
        .select('context')
        .where('event_id', '=', id)
        .executeTakeFirstOrThrow();
      assert.deepEqual(JSON.parse(context), { keep: 'x', _message_key: 'steered' });
    });

    test('text that array literals and JSON escape is stored as given (NUL and lone surrogates as U+FFFD), grouped and back-dated; filters read such contexts', async () => {
      const admin = await fixtureUser(t.app, 'escaper', 'administrator');
      const odd = [
        'say "hi"',
        'back\\slash\\',
        'a,b',
        '{braces}',
        'NULL',
        '',
        'line\nbreak',
        'tab\there',
        'emoji 🦔',
        'quote \' and \\"',
        'nul \u0000 and lone \ud800',
        '[1, {"a": 2}]',
      ];
      const origin = { user: admin, ip: '192.0.2.7', rest: true };
      const entry = (text: string, date?: string) => ({
        logger: 'CustomEntryLogger',
        messageKey: 'custom_entry_added',
        level: 'info' as const,
        context: { message: text, note: text, ...(date ? { _date: date } : {}) },
      });
      // Logged together, so that the activity log writes them as one group (one parameter per
      // column); then once more dated before everything, so that they are linked in one by one.
      const grouped = await Promise.all(odd.map((text) => t.app.activity.log(entry(text), origin)));
      const backDated = await Promise.all(
        odd.map((text) => t.app.activity.log(entry(text, '2001-02-03 04:05:06'), origin)),
      );
      for (const ids of [grouped, backDated]) {
        const rows = await loadRows(t.app, ids);
        const contexts = await t.app.db
          .selectFrom('history_event_contexts')
          .select(['event_id', 'context'])
          .where('event_id', 'in', ids)
          .execute();
        const byId = new Map(contexts.map((c) => [c.event_id, c.context]));
        odd.forEach((text, i) => {
          const row = rows.find((r) => r.id === ids[i])!;
          assert.equal(row.logger, 'CustomEntryLogger');
          // The very text the write prepared: same keys, order and escapes.
          assert.equal(byId.get(ids[i]!), prepareEvent(LOGGER_CATALOGUE, entry(text), origin).context, text);
          assert.equal((JSON.parse(byId.get(ids[i]!)!) as Record<string, string>).note, storableText(text));
        });
        const stored = await t.app.db
          .selectFrom('history_events')
          .select(['id', 'search_text'])
          .where('id', 'in', ids)
          .execute();
        // NUL and the unpaired surrogate are searchable as U+FFFD (PostgreSQL refuses NUL in text).
        odd.forEach((text, i) =>
          assert.ok(stored.find((r) => r.id === ids[i])!.search_text.includes(storableText(text.toLowerCase())), text),
        );
      }
      assert.equal(storableText('a\u0000b\ud800c\ud83e\udd94'), 'a\ufffdb\ufffdc🦔');
      // PostgreSQL's JSON functions refuse \u0000 and lone surrogates: the context holds U+FFFD
      // instead, so that filters reading every context keep working past such an event.
      const odd2 = await t.app.activity.log(
        {
          logger: 'CustomEntryLogger',
          messageKey: 'custom_entry_added',
          level: 'info',
          context: { message: 'odd', note: 'n\u0000l \ud800', 'k\u0000ey': 'v' },
        },
        origin,
      );
      const viewer = { user: admin, lang: 'en' as const };
      const byContext = await listEvents(
        t.app,
        listParams({ context_filters: { note: 'n\ufffdl \ufffd' }, ungrouped: true }),
        viewer,
      );
      assert.deepEqual(
        byContext.items.map((e) => e.id),
        [odd2],
      );
      const byKey = await listEvents(
        t.app,
        listParams({ context_filters: { 'k\ufffdey': 'v' }, ungrouped: true }),
        viewer,
      );
      assert.deepEqual(
        byKey.items.map((e) => e.id),
        [odd2],
      );
      const byMetadata = await listEvents(t.app, listParams({ metadata_search: 'n\ufffdl', ungrouped: true }), viewer);
      assert.deepEqual(
        byMetadata.items.map((e) => e.id),
        [odd2],
      );
    });

    test('event row and context: user, initiator, IP, REST flag, message key', async () => {
      const admin = await fixtureUser(t.app, 'writer', 'administrator');
      const id = await t.app.activity.log(
        {
          logger: 'SimplePostLogger',
          messageKey: 'post_created',
          context: { post_type: 'page', post_title: 'Hi', extra: { a: 1 } },
        },
        { user: admin, ip: '192.0.2.44', rest: true },
      );
      const row = await t.app.db
        .selectFrom('history_events')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.initiator, 'cms_user');
      assert.equal(row.user_id, admin.id);
      assert.equal(row.remote_addr, '192.0.2.x');
      assert.equal(row.message, 'Created {post_type} "{post_title}"');
      assert.equal(row.message_key, 'post_created');
      const { context } = await t.app.db
        .selectFrom('history_event_contexts')
        .select('context')
        .where('event_id', '=', id)
        .executeTakeFirstOrThrow();
      const ctx: unknown = JSON.parse(context);
      assert.deepEqual(ctx, {
        post_type: 'page',
        post_title: 'Hi',
        extra: '{"a":1}',
        _message_key: 'post_created',
        _user_id: String(admin.id),
        _user_login: 'writer',
        _user_email: 'writer@example.test',
        _rest_api_request: 'true',
        _server_remote_addr: '192.0.2.x',
      });
    });

    test('initiators: given, anonymous web request, no origin', async () => {
      const ids = [
        await t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated' },
          { user: null, ip: '', initiator: 'cms_cli' },
        ),
        await t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated' },
          { user: null, ip: '198.51.100.1' },
        ),
        await t.app.activity.log(
          { logger: 'SimpleOptionsLogger', messageKey: 'option_updated' },
          { user: null, ip: '' },
        ),
      ];
      const rows = await t.app.db
        .selectFrom('history_events')
        .select(['id', 'initiator'])
        .where('id', 'in', ids)
        .orderBy('id')
        .execute();
      assert.deepEqual(
        rows.map((r) => r.initiator),
        ['cms_cli', 'web_user', 'other'],
      );
    });

    test('unknown logger and key are still recorded with the key as raw template', async () => {
      const id = await t.app.activity.log(
        { logger: 'NoSuchLogger', messageKey: 'did_it', context: { a: 'b' } },
        { user: null, ip: '' },
      );
      const row = await t.app.db
        .selectFrom('history_events')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      assert.equal(row.message, 'did_it');
    });

    test('context keys: any name is a plain key, a key the origin sets again keeps its place and takes the new value', async () => {
      const admin = await fixtureUser(t.app, 'keys', 'administrator');
      const id = await t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          context: { ['__proto__']: 'p', _user_id: '99', constructor: 'c', '7': 'seven' },
        },
        { user: admin, ip: '' },
      );
      const [item] = await renderEvents(t.app, await loadRows(t.app, [id]), { lang: 'en', viewer: admin });
      assert.deepEqual(Object.entries(item!.context).slice(0, 4), [
        ['7', 'seven'],
        ['__proto__', 'p'],
        ['_user_id', String(admin.id)],
        ['constructor', 'c'],
      ]);
      assert.equal(Object.getPrototypeOf(item!.context), Object.prototype);
      assert.equal(item!.initiator_data.user_id, String(admin.id));
    });

    test(`failed logins: at most ${FAILED_LOGIN_LIMIT} in a row are stored, the rest counted`, async () => {
      const fail = () =>
        t.app.activity.log(
          {
            logger: 'SimpleUserLogger',
            messageKey: 'user_unknown_login_failed',
            level: 'warning',
            context: { failed_username: 'x', _occasionsID: 'f' },
          },
          { user: null, ip: '203.0.113.9', initiator: 'web_user' },
        );
      const before = await t.app.db
        .selectFrom('history_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      for (let i = 0; i < FAILED_LOGIN_LIMIT + 5; i++) await fail();
      assert.equal(await fail(), 0);
      const afterRows = await t.app.db
        .selectFrom('history_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      assert.equal(Number(afterRows.n) - Number(before.n), FAILED_LOGIN_LIMIT);
      const admin = await fixtureUser(t.app, 'counter', 'administrator');
      const options = await searchOptions(t.app, admin, 'en');
      assert.equal(options.failed_login_suppressed_count, 6);
      // Any other event resets the run.
      await t.app.activity.log(
        { logger: 'SimpleOptionsLogger', messageKey: 'option_updated' },
        { user: admin, ip: '' },
      );
      assert.notEqual(await fail(), 0);
      // The stored run groups into one occasion in the overview.
      const page = await listEvents(t.app, listParams({ per_page: 5 }), { user: admin, lang: 'en' });
      assert.deepEqual(
        page.items.slice(0, 3).map((i) => i.subsequent_occasions_count),
        [1, 1, FAILED_LOGIN_LIMIT],
      );
      // Filtered to the user logger, the option event drops out and the runs join.
      const users = await listEvents(t.app, listParams({ loggers: ['SimpleUserLogger'], per_page: 5 }), {
        user: admin,
        lang: 'en',
      });
      assert.equal(users.items[0].subsequent_occasions_count, FAILED_LOGIN_LIMIT + 1);
    });

    test('prepareEvent rejects an unknown level', () => {
      assert.throws(() =>
        prepareEvent(
          LOGGER_CATALOGUE,
          { logger: 'SimpleLogger', messageKey: 'x', level: 'loud' as never },
          { user: null, ip: '' },
        ),
      );
    });
  });
}
