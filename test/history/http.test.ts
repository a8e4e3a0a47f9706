// history/v1 over HTTP: permissions per role, every documented error, writes, previews.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import fs from 'node:fs';
import { SMTPServer } from 'smtp-server';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { unixToUtc } from '../../src/site/zone-time.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { AuthUser } from '../../src/auth/types.ts';

const BASE = '/en/cms-json/history/v1';

for (const target of dbTargets()) {
  describe(`history/v1 over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let smtp: SMTPServer;
    const mails: string[] = [];
    const auth: Partial<Record<Role, string>> = {};
    const emails: Partial<Record<Role, string>> = {};
    const users: Partial<Record<Role, AuthUser>> = {};

    before(async () => {
      smtp = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        onData(stream, _session, done) {
          let data = '';
          stream.on('data', (chunk: Buffer) => (data += chunk.toString()));
          stream.on('end', () => {
            mails.push(data);
            done();
          });
        },
      });
      await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
      const port = (smtp.server.address() as AddressInfo).port;
      t = await createTestApp(target, { SMTP_URL: `smtp://127.0.0.1:${port}` });
      server = await buildServer(t.app);
      for (const role of ['administrator', 'editor', 'author', 'subscriber'] as Role[]) {
        const u = await userWithRole(t.app, role);
        auth[role] = u.authorization;
        emails[role] = u.user.email;
        users[role] = u.user;
      }
    });
    after(async () => {
      await server.close();
      await t.close();
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
    });

    const call = (method: 'GET' | 'POST', url: string, role: Role | null, payload?: Record<string, unknown>) =>
      callRoute(t.app, method, BASE + url, { ...(role ? { authorization: auth[role]! } : {}), body: payload });

    test('POST /events: 201, then readable as a custom entry by the administrator', async () => {
      const r = await call('POST', '/events', 'administrator', {
        message: 'Hello <b>world</b>',
        note: 'Deployed',
        level: 'notice',
      });
      assert.equal(r.status, 201);
      assert.deepEqual(r.body, { message: 'Event logged successfully', data: { status: 201 } });
      const list = await call('GET', '/events?loggers=CustomEntryLogger', 'administrator');
      assert.equal(list.status, 200);
      const item = list.body[0];
      assert.equal(item.message, 'Added a custom entry: Hello world');
      assert.equal(item.message_html, 'Added a custom entry: Hello &lt;b&gt;world&lt;/b&gt;');
      assert.equal(item.loglevel, 'notice');
      assert.equal(item.initiator, 'cms_user');
      assert.equal(item.context._rest_api_request, 'true');
      assert.equal(item.context._server_remote_addr, '127.0.0.x');
      assert.deepEqual(item.details_data, [
        { title: null, items: [{ name: 'Entry notes', new_value: 'Deployed', slug_new: 'note' }] },
      ]);
      assert.ok(list.headers['x-history-maxid']);
      const dated = await call('POST', '/events', 'administrator', { message: 'Old', date: '2020-01-02 03:04:05' });
      assert.equal(dated.status, 201);
      const old = await call('GET', '/events?months=2020-01&ungrouped=1', 'administrator');
      assert.equal(old.body[0].date_gmt, '2020-01-02 03:04:05');
      const de = await call('GET', '/events?months=2020-01&i18n_language=de', 'administrator');
      assert.equal(de.body[0].message, 'Eigener Eintrag hinzugefügt: Old');
    });

    test('POST /events errors', async () => {
      const missing = await call('POST', '/events', 'administrator', { note: 'x' });
      assert.equal(missing.status, 400);
      assert.equal(missing.body.code, 'rest_missing_callback_param');
      const level = await call('POST', '/events', 'administrator', { message: 'x', level: 'loud' });
      assert.equal(level.status, 400);
      assert.equal(level.body.code, 'rest_invalid_param');
      const date = await call('POST', '/events', 'administrator', { message: 'x', date: '2024-01-15T14:30:00' });
      assert.equal(date.status, 400);
      assert.equal(date.body.code, 'rest_invalid_date');
      assert.equal((await call('POST', '/events', 'editor', { message: 'x' })).body.code, 'rest_forbidden');
      assert.equal((await call('POST', '/events', 'editor', { message: 'x' })).status, 403);
      assert.equal((await call('POST', '/events', null, { message: 'x' })).status, 401);
    });

    test('GET /events: 401 anonymous, [] for a subscriber, surrounding needs manage_options', async () => {
      const anon = await call('GET', '/events', null);
      assert.equal(anon.status, 401);
      assert.equal(anon.body.code, 'rest_forbidden_context');
      const sub = await call('GET', '/events', 'subscriber');
      assert.equal(sub.status, 200);
      assert.deepEqual(sub.body, []);
      assert.equal(sub.headers['x-wp-total'], '0');
      const surround = await call('GET', '/events?surrounding_event_id=1', 'editor');
      assert.equal(surround.status, 403);
      assert.equal(surround.body.code, 'rest_forbidden');
      const admin = await call('GET', '/events?surrounding_event_id=1&surrounding_count=1', 'administrator');
      assert.equal(admin.status, 200);
      assert.equal(admin.headers['x-history-centereventid'], '1');
    });

    test('GET /events: invalid parameters are 400 rest_invalid_param', async () => {
      for (const query of [
        'per_page=101',
        'page=0',
        'type=single',
        'since_date=2024-01-01T00:00:00',
        'since_date=2024-13-01%2000:00:00',
        'date_from=yesterday-ish',
        'date_to=2024-02-30',
        'ip_address=1.2.3',
        'ip_address=10.0.0.0/8',
        'months=2025-13',
        'dates=foo',
        'dates=lastdays:0',
        'initiator=wp_user',
        'exclude_initiator=nobody',
        'messages=nocolon',
        'exclude_messages=Logger:',
        'surrounding_count=51',
        'context_filters=abc',
        'include=abc',
        'skip_count_query=maybe',
        'users=x',
      ]) {
        const r = await call('GET', `/events?${query}`, 'administrator');
        assert.equal(r.status, 400, query);
        assert.equal(r.body.code, 'rest_invalid_param', query);
        assert.equal(typeof r.body.data.params, 'object', query);
      }
      const ok = await call(
        'GET',
        '/events?initiator=cms_user,web_user&ip_address=127.0.0.x&context_filters[_rest_api_request]=true',
        'administrator',
      );
      assert.equal(ok.status, 200);
    });

    test('ip_address with wildcards finds the events from those addresses, in lists and has-updates', async () => {
      const headers = { authorization: auth.administrator!, 'content-type': 'application/json' };
      const post = (ip: string, message: string) =>
        server.inject({
          method: 'POST',
          url: `${BASE}/events`,
          headers,
          remoteAddress: ip,
          payload: JSON.stringify({ message }),
        });
      const tag = crypto.randomUUID();
      assert.equal((await post('10.77.3.9', `${tag} a`)).statusCode, 201);
      assert.equal((await post('10.77.200.1', `${tag} b`)).statusCode, 201);
      assert.equal((await post('10.78.3.9', `${tag} c`)).statusCode, 201);
      const mine = async (query: string) => {
        const r = await call('GET', `/events?ungrouped=1&per_page=100&${query}`, 'administrator');
        assert.equal(r.status, 200, query);
        return r.body
          .map((e: { context: Record<string, string> }) => e.context.message)
          .filter((m: string) => m?.startsWith(tag))
          .sort();
      };
      assert.deepEqual(await mine('ip_address=10.77.x.x'), [`${tag} a`, `${tag} b`]);
      assert.deepEqual(await mine('ip_address=10.77.3.x'), [`${tag} a`]);
      assert.deepEqual(
        await mine('ip_address=10.77.x.9'),
        [],
        'stored addresses end in .x: a last octet given matches none',
      );
      assert.deepEqual(await mine('ip_address=10.7.x.x'), [], 'a prefix ends at a dot: 10.7. is not 10.77.');
      assert.deepEqual(
        await mine('ip_address=10.77.3.x&exclude_search=zzz'),
        [`${tag} a`],
        'a filter no cache has seen',
      );
      const newest = (await call('GET', '/events?ungrouped=1&per_page=1', 'administrator')).body[0].id as number;
      const updates = async (ip: string) =>
        (await call('GET', `/events/has-updates?since_id=${newest - 3}&ip_address=${ip}`, 'administrator')).body
          .new_events_count;
      assert.equal(await updates('10.77.x.x'), 2);
      assert.equal(await updates('10.78.3.x'), 1);
      assert.equal(await updates('10.79.x.x'), 0);
    });

    test('context_filters and metadata_search find an event by what its context holds', async () => {
      const needle = `Needle "${crypto.randomUUID()}" 100%`;
      assert.equal((await call('POST', '/events', 'administrator', { message: needle, note: 'n' })).status, 201);
      const byContext = await call(
        'GET',
        `/events?ungrouped=1&context_filters[message]=${encodeURIComponent(needle)}&context_filters[note]=n`,
        'administrator',
      );
      assert.equal(byContext.status, 200);
      assert.deepEqual(
        byContext.body.map((e: { context: Record<string, string> }) => e.context.message),
        [needle],
      );
      assert.equal(byContext.headers['x-wp-total'], '1');
      assert.deepEqual(
        (
          await call(
            'GET',
            `/events?ungrouped=1&context_filters[message]=${encodeURIComponent(needle.toLowerCase())}`,
            'administrator',
          )
        ).body,
        [],
      );
      const word = needle.split('"')[1]!.toUpperCase();
      const bySearch = await call(
        'GET',
        `/events?ungrouped=1&metadata_search=${encodeURIComponent(word)}`,
        'administrator',
      );
      assert.deepEqual(
        bySearch.body.map((e: { context: Record<string, string> }) => e.context.message),
        [needle],
      );
    });

    test('search words longer than a LIKE pattern or a regular expression are answered (a JSON body read as GET)', async () => {
      // Through a GET URL a word stops at 16 KB; a body under X-HTTP-Method-Override carries 60,000 characters.
      const word = `${'w'.repeat(60_000)}${crypto.randomUUID()}`;
      assert.equal((await call('POST', '/events', 'administrator', { message: 'long', note: word })).status, 201);
      for (const [param, total] of [
        ['search', '0'],
        ['exclude_search', null],
        ['metadata_search', '1'],
      ] as const) {
        const res = await server.inject({
          method: 'POST',
          url: `${BASE}/events?ungrouped=1&per_page=1`,
          headers: {
            authorization: auth.administrator!,
            'x-http-method-override': 'GET',
            'content-type': 'application/json',
          },
          payload: { [param]: word.toUpperCase() },
        });
        assert.equal(res.statusCode, 200, `${param}: ${res.body.slice(0, 200)}`);
        if (total) assert.equal(res.headers['x-wp-total'], total, param);
      }
    });

    test('list arguments are bounded (400 beyond), and every list at its bound at once is answered', async () => {
      const post = (path: string, payload: Record<string, unknown>) =>
        server.inject({
          method: 'POST',
          url: `${BASE}${path}`,
          headers: {
            authorization: auth.administrator!,
            'x-http-method-override': 'GET',
            'content-type': 'application/json',
          },
          payload,
        });
      const n = <T>(count: number, f: (i: number) => T): T[] => Array.from({ length: count }, (_, i) => f(i));
      const atBound = {
        loggers: n(1000, (i) => `Logger${i}`),
        exclude_loggers: n(1000, (i) => `Other${i}`),
        users: n(1000, (i) => i + 1),
        exclude_users: n(1000, (i) => i + 5000),
        include: n(1000, (i) => i + 1),
        loglevels: n(1000, () => 'info'),
        exclude_loglevels: n(1000, () => 'debug'),
        initiator: n(1000, () => 'cms_user'),
        exclude_initiator: n(1000, () => 'cms'),
        messages: [n(100, (i) => `Logger${i}:key`).join(',')],
        exclude_messages: n(100, (i) => `Other${i}:key`),
        months: n(100, (i) => `${1900 + i}-01`),
        dates: n(100, (i) => `month:${1900 + i}-03`),
        context_filters: Object.fromEntries(n(100, (i) => [`key${i}`, 'v'] as const)),
      };
      for (const grouping of [{ ungrouped: true }, {}]) {
        const res = await post('/events', { ...atBound, ...grouping });
        assert.equal(res.statusCode, 200, res.body.slice(0, 300));
        assert.equal(res.headers['x-wp-total'], '0');
      }
      assert.equal((await post('/events/has-updates?since_id=0', atBound)).statusCode, 200);
      for (const [name, over] of Object.entries({
        ...Object.fromEntries(
          Object.entries(atBound)
            .filter(([k]) => k !== 'messages' && k !== 'context_filters')
            .map(([k, v]) => [k, [...(v as unknown[]), (v as unknown[])[0]]]),
        ),
        messages: [n(101, (i) => `Logger${i}:key`).join(',')],
        context_filters: Object.fromEntries(n(101, (i) => [`key${i}`, 'v'] as const)),
      })) {
        for (const path of ['/events', '/events/has-updates?since_id=0']) {
          const res = await post(path, { [name]: over });
          assert.equal(res.statusCode, 400, `${name} ${path}: ${res.body.slice(0, 200)}`);
          assert.equal(res.json().code, 'rest_invalid_param');
          assert.ok(name in res.json().data.params, name);
        }
      }
    });

    test('an event whose text holds an unpaired surrogate keeps context_filters and metadata_search working', async () => {
      // Stored as U+FFFD: escaped in the context's JSON, PostgreSQL's JSON functions refused it and every such query failed.
      const tag = crypto.randomUUID();
      assert.equal(
        (await call('POST', '/events', 'administrator', { message: `lone \ud800 ${tag}`, note: 'n' })).status,
        201,
      );
      const byContext = await call(
        'GET',
        `/events?ungrouped=1&context_filters[message]=${encodeURIComponent(`lone \ufffd ${tag}`)}`,
        'administrator',
      );
      assert.equal(byContext.status, 200);
      assert.deepEqual(
        byContext.body.map((e: { context: Record<string, string> }) => e.context.message),
        [`lone \ufffd ${tag}`],
      );
      const bySearch = await call(
        'GET',
        `/events?ungrouped=1&metadata_search=${encodeURIComponent(tag)}`,
        'administrator',
      );
      assert.equal(bySearch.status, 200);
      assert.equal(bySearch.body.length, 1);
      assert.equal((await call('GET', '/events?ungrouped=1&context_filters[note]=n', 'administrator')).status, 200);
    });

    test('has-updates needs since_id', async () => {
      const r = await call('GET', '/events/has-updates', 'administrator');
      assert.equal(r.status, 400);
      assert.equal(r.body.code, 'rest_missing_callback_param');
      const ok = await call('GET', '/events/has-updates?since_id=0', 'administrator');
      assert.equal(ok.status, 200);
      assert.equal(typeof ok.body.new_events_count, 'number');
      assert.equal((await call('GET', '/events/has-updates?since_id=0', null)).status, 401);
    });

    test('single event, stick and unstick', async () => {
      const list = await call('GET', '/events?loggers=CustomEntryLogger&ungrouped=1', 'administrator');
      const id = list.body[0].id;
      const one = await call('GET', `/events/${id}`, 'editor');
      assert.equal(one.status, 200);
      assert.equal(one.body.id, id);
      assert.equal((await call('GET', `/events/${id}`, 'subscriber')).status, 403);
      assert.equal((await call('GET', '/events/999999', 'administrator')).body.code, 'rest_event_invalid_id');
      assert.equal((await call('GET', '/events/abc', 'administrator')).body.code, 'rest_no_route');

      const notSticky = await call('POST', `/events/${id}/unstick`, 'administrator');
      assert.equal(notSticky.status, 409);
      assert.equal(notSticky.body.code, 'rest_event_not_sticky');
      const stick = await call('POST', `/events/${id}/stick`, 'administrator');
      assert.equal(stick.status, 200);
      assert.equal(stick.body.sticky, true);
      assert.equal((await call('POST', `/events/${id}/stick`, 'administrator')).status, 200, 'sticking twice is fine');
      const sticky = await call('GET', '/events?only_sticky=1', 'editor');
      assert.deepEqual(
        sticky.body.map((e: { id: number }) => e.id),
        [id],
      );
      const unstick = await call('POST', `/events/${id}/unstick`, 'administrator');
      assert.equal(unstick.status, 200);
      assert.equal(unstick.body.sticky, false);
      assert.equal((await call('POST', '/events/999999/stick', 'administrator')).status, 404);
      const logged = await call(
        'GET',
        '/events?messages=SimpleHistoryLogger:event_stuck,SimpleHistoryLogger:event_unstuck&ungrouped=1',
        'administrator',
      );
      assert.deepEqual(
        logged.body.map((e: { message: string }) => e.message),
        [`Made event ${id} no longer sticky`, `Made event ${id} sticky`, `Made event ${id} sticky`],
      );
      const forbidden = await call('POST', `/events/${id}/stick`, 'editor');
      assert.equal(forbidden.status, 403);
      assert.equal(forbidden.body.code, 'rest_forbidden_context');
    });

    test('Link header of a middle page', async () => {
      for (let i = 0; i < 3; i++)
        await call('POST', '/events', 'administrator', { message: `m${i}`, level: ['info', 'debug', 'info'][i] });
      const r = await call('GET', '/events?per_page=1&page=2&ungrouped=1', 'administrator');
      const link = String(r.headers.link);
      assert.match(link, /\/en\/cms-json\/history\/v1\/events\?[^>]*page=1[^>]*>; rel="prev"/);
      assert.match(link, /page=3[^>]*>; rel="next"/);
      assert.match(link, /ungrouped=1/);
    });

    test('max_id_first_page keeps a paging pass stable while events arrive, back-dated ones too', async () => {
      for (const level of ['info', 'notice', 'notice', 'warning', 'info'])
        await call('POST', '/events', 'administrator', { message: `pin ${level}`, level });
      const page = async (n: number, maxId?: number) => {
        const r = await call(
          'GET',
          `/events?per_page=2&page=${n}${maxId === undefined ? '' : `&max_id_first_page=${maxId}`}`,
          'administrator',
        );
        assert.equal(r.status, 200);
        return {
          ids: r.body.map((e: { id: number; subsequent_occasions_count: number }) => [
            e.id,
            e.subsequent_occasions_count,
          ]),
          total: r.headers['x-wp-total'],
          pages: r.headers['x-wp-totalpages'],
        };
      };
      const first = await page(1);
      const maxId = Number((await call('GET', '/events?per_page=2', 'administrator')).headers['x-history-maxid']);
      // The pin is the newest id: the same answer as no pin.
      const second = await page(2, maxId);
      assert.deepEqual(await page(1, maxId), first);
      // Newer events and a back-dated one arrive; the pinned pass does not move.
      await call('POST', '/events', 'administrator', { message: 'after the pin', level: 'info' });
      assert.deepEqual(await page(1, maxId), first);
      assert.deepEqual(await page(2, maxId), second);
      await call('POST', '/events', 'administrator', {
        message: 'back-dated after the pin',
        level: 'debug',
        date: '2020-06-01 00:00:00',
      });
      assert.deepEqual(await page(1, maxId), first);
      assert.deepEqual(await page(2, maxId), second);
      // Unpinned, the new events count.
      assert.notEqual((await page(1)).total, first.total);
    });

    test('a flood of one message: filtered pages count its long groups exactly', async () => {
      // Longer than the walk reads row by row (events.ts LONG_GROUP_ROWS): the flood's rows are
      // counted through its maintained runs, which a warning in the middle splits in two.
      const user = users.editor!;
      await call('GET', '/events?per_page=1', 'administrator'); // the administrator's login is logged before the flood
      const tick = (i: number) =>
        t.app.activity.log(
          {
            logger: 'CustomEntryLogger',
            messageKey: 'custom_entry_added',
            level: 'info',
            context: { message: 'cron tick' },
          },
          { user: i % 2 ? null : user, ip: '' },
        );
      const flood = async (n: number) => Math.max(...(await Promise.all(Array.from({ length: n }, (_, i) => tick(i)))));
      const before = await t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          level: 'info',
          context: { option: 'before-flood', option_page: 'p' },
        },
        { user, ip: '' },
      );
      const olderTop = await flood(1400);
      const warning = await t.app.activity.log(
        {
          logger: 'CustomEntryLogger',
          messageKey: 'custom_entry_added',
          level: 'warning',
          context: { message: 'mid-flood' },
        },
        { user, ip: '' },
      );
      const top = await flood(1200);
      const groups = async (query: string) => {
        const r = await call('GET', `/events?${query}`, 'administrator');
        assert.equal(r.status, 200, query);
        return r.body.map((e: { id: number; subsequent_occasions_count: number }) => [
          e.id,
          e.subsequent_occasions_count,
        ]);
      };
      assert.deepEqual(await groups('per_page=3'), [
        [top, 1200],
        [warning, 1],
        [olderTop, 1400],
      ]);
      assert.deepEqual(
        await groups('loglevels=info&per_page=2'),
        [
          [top, 2600],
          [before, 1],
        ],
        'the warning excluded: one group',
      );
      assert.deepEqual(
        await groups('loglevels=info&per_page=1&page=2'),
        [[before, 1]],
        'the flood skipped before the page',
      );
      assert.deepEqual(await groups('exclude_loglevels=warning&per_page=1&skip_count_query=1'), [[top, 2600]]);
      assert.deepEqual(
        await groups(`user=${user.id}&per_page=2`),
        [
          [top - 1, 600],
          [warning, 1],
        ],
        'every other row of the flood',
      );
      assert.deepEqual(await groups(`user=${user.id}&loglevels=info&per_page=2`), [
        [top - 1, 1300],
        [before, 1],
      ]);
      assert.deepEqual(await groups(`user=${user.id}&loglevels=info&per_page=1&page=2`), [[before, 1]]);

      // Searches are not grouped, and no index serves them: SQLite walks the date index in
      // slices (slices.ts): 1,000 rows, then as many as fit its time, with other requests between.
      const found = async (query: string) => {
        const r = await call('GET', `/events?${query}`, 'administrator');
        assert.equal(r.status, 200, query);
        return { ids: r.body.map((e: { id: number }) => e.id), total: Number(r.headers['x-wp-total']) };
      };
      assert.deepEqual(await found('search=before-flood'), { ids: [before], total: 1 }, 'found below the flood');
      assert.deepEqual(await found('search=before-flood&page=2'), { ids: [], total: 1 });
      const oldest = Array.from({ length: 100 }, (_, i) => before + 100 - i);
      assert.deepEqual(
        await found('search=cron+tick&per_page=100&page=26'),
        { ids: oldest, total: 2600 },
        'the last page of the flood',
      );
      assert.deepEqual(await found('search=mid-flood&ungrouped=1'), { ids: [warning], total: 1 });
    });

    test('permissions of the other routes', async () => {
      const expect: [string, Role | null, number][] = [
        ['/backfill-status', 'subscriber', 200],
        ['/backfill-status', null, 401],
        ['/search-options', 'subscriber', 200],
        ['/search-options', null, 401],
        ['/search-user?q=a', 'administrator', 200],
        ['/search-user?q=a', 'editor', 403],
        ['/stats/summary', 'administrator', 200],
        ['/stats/summary', 'editor', 403],
        ['/stats/summary', null, 401],
        ['/support-info', 'administrator', 200],
        ['/support-info', 'editor', 403],
        ['/support-info/health-check', 'administrator', 200],
        ['/support-info/health-check', 'author', 403],
        ['/users/1/card?id=1', 'editor', 200],
        ['/users/1/card?id=1', 'author', 403],
        ['/initiators/cms/card?type=cms', 'editor', 200],
        ['/initiators/cms/card?type=cms', 'subscriber', 403],
        ['/email-report/preview/html', 'editor', 403],
        ['/email-report/preview/email', 'editor', 403],
      ];
      for (const [url, role, status] of expect)
        assert.equal((await call('GET', url, role)).status, status, `${url} as ${role}`);
      const stats = await call('GET', '/stats/summary', 'editor');
      assert.equal(stats.body.code, 'rest_forbidden_context');
      const sub = await call('GET', '/search-options', 'subscriber');
      assert.deepEqual(sub.body.loggers, []);
      assert.equal(sub.body.current_user_can_manage_options, false);
    });

    test('cards and user search', async () => {
      const admin = await call('GET', '/search-user?q=administrator', 'administrator');
      assert.equal(admin.body.length, 1);
      assert.deepEqual(Object.keys(admin.body[0]), [
        'ID',
        'user_login',
        'user_nicename',
        'user_email',
        'display_name',
        'id',
      ]);
      assert.equal(typeof admin.body[0].ID, 'string');
      const byMail = await call('GET', `/search-user?q=${encodeURIComponent(emails.editor!)}`, 'administrator');
      assert.equal(byMail.body[0].user_email, emails.editor);
      const empty = await call('GET', '/search-user?q=%20', 'administrator');
      assert.equal(empty.status, 400);
      assert.equal(empty.body.code, 'rest_invalid_param');
      const missing = await call('GET', '/search-user', 'administrator');
      assert.deepEqual(
        [missing.status, missing.body.code, missing.body.message],
        [400, 'rest_invalid_param', 'Please provide a search query.'],
      );
      // q is a declared (internal) argument now: a list is the schema's 400, not a 500.
      const listed = await call('GET', '/search-user?q[]=a&q[]=b', 'administrator');
      assert.deepEqual([listed.status, listed.body.code], [400, 'rest_invalid_param']);
      assert.ok(listed.body.data.params.q);
      const id = Number(admin.body[0].ID);
      const card = await call('GET', `/users/${id}/card?id=${id}`, 'editor');
      assert.equal(card.body.user_id, id);
      assert.equal(card.body.profile_url, '', 'editors cannot edit users');
      assert.equal((await call('GET', '/users/99999/card?id=99999', 'editor')).body.code, 'rest_user_not_found');
      // The required `id` defaults to the path variable: clients need not repeat it.
      assert.equal((await call('GET', `/users/${id}/card`, 'editor')).body.user_id, id);
      const initiator = await call('GET', '/initiators/cms_user/card?type=cms', 'editor');
      assert.equal(initiator.status, 400);
      assert.equal((await call('GET', '/initiators/cms/card?type=cms_user', 'editor')).status, 400);
      const web = await call('GET', '/initiators/web_user/card?type=web_user', 'administrator');
      assert.deepEqual(
        web.body.details.map((d: { key: string }) => d.key),
        ['events_today', 'events_7_days', 'events_total'],
      );
    });

    test('email preview as HTML and sent through SMTP', async () => {
      await call('POST', '/events', 'administrator', { message: '<script>alert(1)</script>' });
      const html = await call('GET', '/email-report/preview/html', 'administrator');
      assert.equal(html.status, 200);
      assert.match(String(html.headers['content-type']), /text\/html/);
      assert.match(html.body, /^<!DOCTYPE html>/);
      assert.match(html.body, /Website Activity Summary/);
      assert.doesNotMatch(html.body, /<script>/);
      const sent = await call('POST', '/email-report/preview/email', 'administrator');
      assert.equal(sent.status, 200);
      assert.deepEqual(sent.body, {
        success: true,
        message: `Test email sent successfully to ${emails.administrator}.`,
      });
      assert.equal(mails.length, 1);
      assert.match(mails[0], new RegExp(`To: ${emails.administrator}`));
      assert.match(mails[0], /Subject: Weekly Activity Summary for .* \(preview\)/);
      const viaGet = await call('GET', '/email-report/preview/email', 'administrator');
      assert.equal(viaGet.status, 200);
      assert.equal(mails.length, 2);
    });

    test('backfill status: users imported once', async () => {
      const first = await call('GET', '/backfill-status', 'administrator');
      assert.equal(first.body.completed, true);
      assert.equal(first.body.type_stats.user.available, 4);
      assert.equal(first.body.type_stats.user.imported, 4);
      assert.equal(first.body.type_stats.user.missed_label, '0 more users');
      const backfilled = await call(
        'GET',
        '/events?ungrouped=1&messages=SimpleUserLogger:user_created',
        'administrator',
      );
      assert.equal(backfilled.body.length, 4);
      assert.ok(
        backfilled.body.every((e: { backfilled: boolean; initiator: string }) => e.backfilled && e.initiator === 'cms'),
      );
      await call('GET', '/backfill-status', 'administrator');
      const again = await call('GET', '/events?ungrouped=1&messages=SimpleUserLogger:user_created', 'administrator');
      assert.equal(again.body.length, 4, 'runs once');
    });

    test('stats and support info shapes', async () => {
      // Events written over HTTP (single and in a batch) are counted by the statistics, which
      // add up the hourly counts their writer keeps: the total equals the events in the range.
      assert.equal((await call('POST', '/events', 'administrator', { message: 'counted' })).status, 201);
      const batch = await server.inject({
        method: 'POST',
        url: '/en/cms-json/batch/v1',
        headers: {
          authorization: (await userWithRole(t.app, 'administrator')).authorization,
          'content-type': 'application/json',
        },
        payload: {
          requests: [1, 2, 3].map((i) => ({
            method: 'POST',
            path: '/history/v1/events',
            body: { message: `counted ${i}` },
          })),
        },
      });
      assert.equal(batch.statusCode, 207, batch.body);
      const summary = await call('GET', '/stats/summary', 'administrator');
      const inRange = await t.app.db
        .selectFrom('history_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('date', '>=', unixToUtc(summary.body.date_range.from))
        .where('date', '<=', unixToUtc(summary.body.date_range.to))
        .executeTakeFirstOrThrow();
      assert.equal(summary.body.total_events, Number(inRange.n));
      assert.deepEqual(Object.keys(summary.body), [
        'date_range',
        'total_events',
        'total_events_since_install',
        'totals',
      ]);
      assert.equal(summary.body.date_range.to - summary.body.date_range.from + 1 >= 29 * 86400, true);
      assert.ok(summary.body.totals.users.logins >= 4, 'the first request of each test user is a login');
      // A failed login over HTTP shows in the details, read from the event's stored context.
      const intruder = `mallory-${crypto.randomUUID().slice(0, 8)}`;
      const refused = await server.inject({
        method: 'GET',
        url: BASE + '/events',
        headers: { authorization: `Basic ${Buffer.from(`${intruder}:wrong`).toString('base64')}` },
      });
      assert.equal(refused.statusCode, 401);
      const users = await call('GET', '/stats/users?include_details=1&limit=2', 'administrator');
      assert.ok(users.body.details.successful_logins.length <= 2);
      const details = await call('GET', '/stats/users?include_details=1&limit=100', 'administrator');
      assert.deepEqual(
        details.body.details.failed_logins
          .filter((f: { attempted_username: string }) => f.attempted_username === intruder)
          .map((f: { failed_count: string }) => f.failed_count),
        ['1'],
      );
      assert.equal((await call('GET', '/stats/users?limit=101', 'administrator')).status, 400);
      for (const name of [
        'content',
        'media',
        'plugins',
        'core',
        'peak-days',
        'peak-times',
        'activity-overview',
        'notes',
      ]) {
        const r = await call('GET', `/stats/${name}?include_details=true`, 'administrator');
        assert.equal(r.status, 200, name);
        assert.ok(r.body.date_range, name);
      }
      const overview = await call('GET', '/stats/activity-overview', 'administrator');
      assert.equal(overview.body.activity_by_date.length >= 30, true);
      const info = await call('GET', '/support-info', 'administrator');
      assert.match(info.body.plain_text, /=== History Support Info ===/);
      assert.equal(info.body.info.history.db_engine, target.name);
      assert.equal(info.body.info.server.node_version, process.version);
      assert.ok(info.body.info.history.table_stats.history_events.num_rows > 0);
      assert.equal(
        info.body.info.history.table_stats.history_event_contexts.num_rows,
        info.body.info.history.table_stats.history_events.num_rows,
        'one context per event',
      );
      const health = await call('GET', '/support-info/health-check', 'administrator');
      assert.equal(health.body.status, 'ok');
    });
  });
}

describe('email preview without SMTP_URL', () => {
  test('writes the message into the outbox and says so', async () => {
    const t = await createTestApp(dbTargets()[0]);
    const server = await buildServer(t.app);
    try {
      const admin = await userWithRole(t.app, 'administrator');
      const r = await server.inject({
        method: 'POST',
        url: `${BASE}/email-report/preview/email`,
        headers: { authorization: admin.authorization },
      });
      assert.equal(r.statusCode, 200);
      const body = r.json();
      assert.match(body.message, /No mail server is configured/);
      assert.ok(body.outbox_file.startsWith(t.config.dataDir));
      assert.match(fs.readFileSync(body.outbox_file, 'utf8'), /Subject: Weekly Activity Summary for .* \(preview\)/);
    } finally {
      await server.close();
      await t.close();
    }
  });
});
