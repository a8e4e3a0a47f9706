// history/v1 as the original plugin's own screens read it (issue 27): the details a client
// written for the original sees, one test per difference found side by side with it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { callRoute, userWithRole } from '../support/http.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { reportPeriod } from '../../src/namespaces/history/reports/email-report.ts';

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

const BASE = '/en/cms-json/history/v1';

for (const target of dbTargets()) {
  describe(`history/v1 as the original's screens read it (${target.name})`, () => {
    let t: TestApp;
    const users: Partial<Record<Role, AuthUser>> = {};

    before(async () => {
      t = await createTestApp(target);
      for (const role of ['administrator', 'editor'] as Role[]) {
        const u = await userWithRole(t.app, role);
        users[role] = u.user;
      }
    });
    after(async () => {
      await t.close();
    });

    const call = (
      method: 'GET' | 'POST' | 'OPTIONS',
      url: string,
      role: Role | null,
      payload?: Record<string, unknown> | string,
    ) =>
      callRoute(t.app, method, BASE + url, {
        user: role ? users[role] : null,
        ...(typeof payload === 'string' ? { json: payload } : { body: payload }),
      });

    test('1. search-user answers each user with a lowercase id besides ID, both strings', async () => {
      const r = await call('GET', `/search-user?q=${users.editor!.login}`, 'administrator');
      assert.equal(r.status, 200);
      assert.deepEqual(r.body, [
        {
          ID: String(users.editor!.id),
          user_login: users.editor!.login,
          user_nicename: users.editor!.login,
          user_email: users.editor!.email,
          display_name: users.editor!.displayName,
          id: String(users.editor!.id),
        },
      ]);
    });

    test('2. search-options describes the message types of every logger that has messages, in the request language', async () => {
      const en = await call('GET', '/search-options', 'administrator');
      const byslug = new Map(
        (en.body.loggers as { slug: string; search_data: unknown }[]).map((l) => [l.slug, l.search_data]),
      );
      assert.deepEqual(byslug.get('CustomEntryLogger'), {
        search: { label: 'Custom entries', options: ['CustomEntryLogger:custom_entry_added'] },
        search_options: [{ label: 'Custom entry added', options: ['CustomEntryLogger:custom_entry_added'] }],
      });
      const post = byslug.get('SimplePostLogger') as {
        search: { label: string; options: string[] };
        search_all: { label: string; options: string[] };
      };
      assert.equal(post.search.label, 'Posts & Pages');
      assert.equal(post.search.options.length, 9);
      assert.ok(post.search.options.includes('SimplePostLogger:page_set_as_homepage'));
      assert.deepEqual(post.search_all, { label: 'All posts & pages activity', options: post.search.options });
      for (const [slug, data] of byslug) {
        if (slug === 'SimpleLogger' || slug === 'Plugin_ACF') assert.deepEqual(data, [], slug);
        else assert.ok(!Array.isArray(data) && (data as { search_options: unknown[] }).search_options.length > 0, slug);
      }
      const de = await call('GET', '/search-options?i18n_language=de', 'administrator');
      const custom = (de.body.loggers as { slug: string; search_data: { search: { label: string } } }[]).find(
        (l) => l.slug === 'CustomEntryLogger',
      )!;
      assert.equal(custom.search_data.search.label, 'Eigene Einträge');
      const sched = (de.body.loggers as { slug: string; search_data: { search_all: { label: string } } }[]).find(
        (l) => l.slug === 'SchedLogger',
      )!;
      assert.equal(sched.search_data.search_all.label, 'Alle Aktivitäten der Terminplanung');
    });

    const customEntries = async (role: Role, query = '') =>
      (await call('GET', `/events?loggers=CustomEntryLogger&ungrouped=1${query}`, role)).body as Record<string, any>[];

    test('4. message is plain text: tags stripped (message_html escapes them)', async () => {
      assert.equal(
        (await call('POST', '/events', 'administrator', { message: `<b>Bold</b> & "quoted" 'text'` })).status,
        201,
      );
      const [item] = await customEntries('administrator');
      assert.equal(item.message, `Added a custom entry: Bold & "quoted" 'text'`);
      assert.equal(
        item.message_html,
        'Added a custom entry: &lt;b&gt;Bold&lt;/b&gt; &amp; &quot;quoted&quot; &#039;text&#039;',
      );
    });

    test('5. details are null without details; a note sits in a span of its cell and names its context key', async () => {
      await call('POST', '/events', 'administrator', { message: 'plain' });
      const [plain] = await customEntries('administrator');
      assert.equal(plain.details_data, null);
      assert.equal(plain.details_html, null);
      await call('POST', '/events', 'administrator', { message: 'noted', note: 'a <note>' });
      const [noted] = await customEntries('administrator');
      assert.deepEqual(noted.details_data, [
        { title: null, items: [{ name: 'Entry notes', new_value: 'a <note>', slug_new: 'note' }] },
      ]);
      assert.equal(
        noted.details_html,
        '<table class="SimpleHistoryLogitem__keyValueTable"><tbody><tr><td>Entry notes</td><td><span class="SimpleHistoryLogitem__keyValueTable__addedThing">a &lt;note&gt;</span></td></tr></tbody></table>',
      );
    });

    test('6. avatars by SHA-256 of the address, 96 px avatar URL, the CMS image tag; profile links as the viewer may follow them', async () => {
      const admin = users.administrator!;
      const site = t.app.config.siteUrl;
      await call('POST', '/events', 'administrator', { message: 'avatar' });
      const hash = sha256(admin.email.trim().toLowerCase());
      const [asEditor] = await customEntries('editor');
      assert.equal(asEditor.initiator_data.user_avatar_url, `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`);
      assert.equal(
        asEditor.initiator_data.user_image,
        `<img alt='' src='https://secure.gravatar.com/avatar/${hash}?s=32&#038;d=mm&#038;r=g' srcset='https://secure.gravatar.com/avatar/${hash}?s=64&#038;d=mm&#038;r=g 2x' class='avatar avatar-32 photo' height='32' width='32' loading='lazy' decoding='async'/>`,
      );
      assert.equal(asEditor.initiator_data.user_profile_url, '', 'editors may not edit other users');
      const [asAdmin] = await customEntries('administrator');
      assert.equal(
        asAdmin.initiator_data.user_profile_url,
        `${site}/cms-admin/profile.php`,
        "the viewer's own profile",
      );
      const card = await call('GET', `/users/${admin.id}/card`, 'editor');
      assert.equal(card.body.avatar_url, `https://secure.gravatar.com/avatar/${hash}?s=96&d=mm&r=g`);
      assert.equal(card.body.profile_url, '');
      assert.deepEqual(card.body.actions, [{ key: 'view_profile', label: 'View user profile', url: '' }]);
      const own = await call('GET', `/users/${admin.id}/card`, 'administrator');
      assert.deepEqual(own.body.actions, [
        { key: 'view_profile', label: 'View user profile', url: `${site}/cms-admin/profile.php` },
      ]);
      const other = await call('GET', `/users/${users.editor!.id}/card`, 'administrator');
      assert.equal(other.body.profile_url, `${site}/cms-admin/user-edit.php?user_id=${users.editor!.id}`);
    });

    test('an initiator card of a type there is none of: 400 rest_invalid_param naming type, in the language asked', async () => {
      for (const [root, message] of [
        ['/en/cms-json', 'Invalid parameter(s): type'],
        ['/de/cms-json', 'Ungültige(r) Parameter: type'],
      ] as const) {
        const res = await callRoute(t.app, 'GET', `${root}/history/v1/initiators/robot/card`, {
          user: users.administrator,
        });
        assert.equal(res.status, 400);
        const body = res.body as { code: string; message: string; data: { params: Record<string, string> } };
        assert.deepEqual([body.code, body.message], ['rest_invalid_param', message]);
        assert.match(body.data.params.type!, /^type is not one of /);
      }
    });

    test('7. the context of a REST write: _rest_api_request "true", no _user_role', async () => {
      await call('POST', '/events', 'administrator', { message: 'context' });
      const [item] = await customEntries('administrator');
      assert.equal(item.context._rest_api_request, 'true');
      assert.ok(!('_user_role' in item.context));
    });

    test('8. _fields keeps the order of the item', async () => {
      const r = await call('GET', '/events?_fields=message,id,date_gmt&per_page=2', 'administrator');
      for (const item of r.body) assert.deepEqual(Object.keys(item), ['id', 'date_gmt', 'message']);
    });

    test('9. Link rebuilds the query from the parsed parameters: lists indexed, booleans as 1', async () => {
      for (let i = 0; i < 3; i++) await call('POST', '/events', 'administrator', { message: `link ${i}` });
      const r = await call(
        'GET',
        '/events?loggers=CustomEntryLogger,SimpleUserLogger&dates=lastdays:30&ungrouped=true&per_page=1&page=2',
        'administrator',
      );
      const base = `${t.app.config.siteUrl}/en/cms-json/history/v1/events?loggers%5B0%5D=CustomEntryLogger&loggers%5B1%5D=SimpleUserLogger&dates%5B0%5D=lastdays%3A30&ungrouped=1&per_page=1`;
      assert.equal(r.headers.link, `<${base}&page=1>; rel="prev", <${base}&page=3>; rel="next"`);
    });

    test('10. the events route carries its schema; context_filters declares string values; POST args list type first', async () => {
      const options = await call('OPTIONS', '/events', 'administrator');
      assert.equal(options.body.schema.title, 'history-event');
      assert.deepEqual(options.body.schema.properties.sticky_appended, {
        description: 'Whether the event is sticky and appended to the result set.',
        type: 'boolean',
      });
      const index = await call('GET', '?context=help', null);
      assert.ok(index.body.routes['/history/v1/events'].schema, 'the index with context=help');
      assert.equal(
        index.body.routes['/history/v1/events/has-updates'].schema,
        undefined,
        'has-updates has none, as in the original',
      );
      assert.equal(index.body.routes['/history/v1/stats/summary'].schema.title, 'history-stats');
      const [get, post] = options.body.endpoints;
      assert.deepEqual(get.args.context_filters.additionalProperties, { type: 'string' });
      assert.deepEqual(Object.keys(post.args.message), ['type', 'description', 'required']);
      assert.deepEqual(Object.keys(post.args.level), ['type', 'enum', 'default', 'description', 'required']);
      const de = await call('OPTIONS', '/events?i18n_language=de', 'administrator');
      assert.equal(de.body.schema.properties.id.description, 'Eindeutige Kennung des Ereignisses.');
    });

    test('11. error details and Allow as the original sends them', async () => {
      const ip = await call('GET', '/events?ip_address=1.2.3', 'administrator');
      assert.equal(ip.status, 400);
      assert.deepEqual(ip.body.data, { status: 400, params: { ip_address: 'Invalid parameter.' }, details: [] });
      const initiator = await call('GET', '/events?initiator=nobody', 'administrator');
      assert.deepEqual(initiator.body.data.details.initiator, {
        code: 'rest_invalid_param',
        message: 'initiator is not one of cms_user, web_user, cms, cms_cli, other',
        data: { status: 400 },
      });
      const json = await call('POST', '/events', 'administrator', '{"message": ');
      assert.equal(json.body.code, 'rest_invalid_json');
      assert.equal(json.headers.allow, 'GET, POST');
      const missing = await call('GET', '/events/999999', 'administrator');
      assert.equal(missing.status, 404);
      assert.equal(missing.headers.allow, undefined);
      const stick = await call('POST', '/events/999999/stick', 'administrator');
      assert.equal(stick.status, 404);
      assert.equal(stick.body.code, 'rest_event_invalid_id');
      assert.equal(stick.headers.allow, undefined);
      const option = await t.app.activity.log(
        {
          logger: 'SimpleOptionsLogger',
          messageKey: 'option_updated',
          context: { option: 'x', option_page: 'general' },
        },
        { user: null, ip: '' },
      );
      const hidden = await call('GET', `/events/${option}`, 'editor');
      assert.equal(hidden.status, 403);
      assert.equal(hidden.body.code, 'rest_forbidden_context');
      assert.equal(hidden.headers.allow, undefined);
      assert.equal((await call('GET', `/events/${option}`, 'administrator')).headers.allow, 'GET');
    });

    test('12. stats/plugins lists available_updates before total', async () => {
      const r = await call('GET', '/stats/plugins', 'administrator');
      assert.deepEqual(Object.keys(r.body.summary), [
        'updates',
        'installations',
        'activations',
        'available_updates',
        'total',
      ]);
    });

    test('13. e-mail report previews: "(preview)" in the title, the period as the original writes it, sections in its order', async () => {
      assert.equal(reportPeriod('2026-11-19', '2026-11-25', 'en'), 'Thu November 19 – Wed November 25, 2026');
      const html = (await call('GET', '/email-report/preview/html', 'administrator')).body as string;
      const site = t.app.options.get('blogname');
      assert.ok(html.includes(`<title>Weekly Activity Summary for ${site} (preview)</title>`), html.slice(0, 300));
      const day =
        '(Mon|Tue|Wed|Thu|Fri|Sat|Sun) (January|February|March|April|May|June|July|August|September|October|November|December) \\d{1,2}';
      assert.match(html, new RegExp(`${day} – ${day}, \\d{4}`));
      const at = (title: string) => html.indexOf(`>${title}</h2>`);
      const order = [
        'Event count by day',
        'Users',
        'Posts and Pages',
        'Plugins',
        'Media',
        'Comments',
        'Themes',
        'CMS',
        'Notes',
      ].map(at);
      assert.ok(
        order.every((i) => i > 0),
        String(order),
      );
      assert.deepEqual(
        order,
        [...order].sort((a, b) => a - b),
      );
    });

    test("14. support-info: the oldest event without internal columns; info in the original's shape", async () => {
      const r = await call('GET', '/support-info', 'administrator');
      assert.deepEqual(Object.keys(r.body.info), [
        'cms',
        'server',
        'history',
        'warnings',
        'theme',
        'plugins',
        'mu_plugins',
        'dropins',
        'loggers',
        'browser',
      ]);
      assert.deepEqual(Object.keys(r.body.info.history.oldest_event), [
        'id',
        'date',
        'logger',
        'level',
        'message',
        'occasions_id',
        'initiator',
      ]);
      assert.equal(typeof r.body.info.history.version, 'string');
      assert.deepEqual(Object.keys(r.body.info.theme), ['name', 'version', 'author', 'child_theme']);
      assert.match(r.body.plain_text, /=== Active Plugins \(0\) ===/);
    });

    // Last: its events are dated in the future and head the unfiltered list.
    test('3. a group is headed by its highest-id row; groups ordered by newest date, then highest id', async () => {
      const post = async (level: string, date: string) => {
        assert.equal(
          (await call('POST', '/events', 'administrator', { message: `${level} ${date}`, level, date })).status,
          201,
        );
        return (
          await t.app.db
            .selectFrom('history_events')
            .select('id')
            .orderBy('id', 'desc')
            .limit(1)
            .executeTakeFirstOrThrow()
        ).id;
      };
      // Filtered (walked): a run of one occasion whose back-dated member has the highest id.
      const a1 = await post('critical', '2025-05-01 10:00:00');
      await post('alert', '2025-05-01 11:00:00');
      const a2 = await post('critical', '2025-05-01 12:00:00');
      const a3 = await post('critical', '2025-05-01 11:30:00');
      const may = await call('GET', '/events?date_from=2025-05-01&date_to=2025-05-01', 'administrator');
      assert.deepEqual(
        may.body
          .map((e: { id: number; subsequent_occasions_count: number }) => [e.id, e.subsequent_occasions_count])
          .slice(0, 1),
        [[a3, 2]],
      );
      assert.equal(may.headers['x-history-maxid'], String(a3));
      assert.equal(may.headers['x-history-maxdate'], '2025-05-01 11:30:00');
      // Expanding the group from its head finds its other member, not the older run's.
      const head = may.body[0];
      const occasions = await call(
        'GET',
        `/events?type=occasions&logRowID=${head.id}&occasionsID=${head.occasions_id}&occasionsCount=1`,
        'administrator',
      );
      assert.deepEqual(
        occasions.body.map((e: { id: number }) => e.id),
        [a2],
      );
      assert.ok(a1 < a2);

      // Two groups starting at the same second: the one holding a back-dated higher id goes first.
      for (const [prefix, query] of [
        ['2025-06-01', 'date_from=2025-06-01&date_to=2025-06-01&'],
        ['2099-01-01', ''],
      ] as const) {
        const q1 = await post('error', `${prefix} 10:00:00`);
        const p1 = await post('notice', `${prefix} 10:00:00`);
        const q2 = await post('error', `${prefix} 09:00:00`);
        assert.ok(q1 < p1 && p1 < q2);
        const page = async (n: number, perPage: number) => {
          const r = await call('GET', `/events?${query}per_page=${perPage}&page=${n}`, 'administrator');
          return {
            items: r.body.map((e: { id: number; subsequent_occasions_count: number }) => [
              e.id,
              e.subsequent_occasions_count,
            ]),
            maxId: r.headers['x-history-maxid'],
            maxDate: r.headers['x-history-maxdate'],
          };
        };
        assert.deepEqual((await page(1, 1)).items, [[q2, 2]], prefix);
        assert.deepEqual((await page(2, 1)).items, [[p1, 1]], prefix);
        // A page's rows by their own dates, as the original orders them.
        const both = await page(1, 2);
        assert.deepEqual(
          both.items,
          [
            [p1, 1],
            [q2, 2],
          ],
          prefix,
        );
        assert.equal(both.maxId, String(p1));
        const updates = await call(
          'GET',
          `/events/has-updates?${query}since_id=${both.maxId}&since_date=${encodeURIComponent(both.maxDate as string)}`,
          'administrator',
        );
        assert.deepEqual(updates.body, { new_events_count: 0 }, prefix);
      }
    });
  });
}
