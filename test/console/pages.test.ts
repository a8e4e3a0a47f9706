// The console's pages over HTTP (Fastify inject) on every database target: sign-in and roles,
// languages, the activity log's filters against the API's own answer for the same query,
// occasions, sticky events, custom entries, single events, the export, the addresses the API
// hands out, the user pages and their forms.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import qs from 'qs';
import { filterArgs, listArgs, readLogQuery } from '../../src/console/history/query.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { WebClient, csrfOf, decodeEntities, logIn, pathOf } from '../web/support.ts';
import {
  PASSWORD,
  api,
  consoleClient,
  listedIds,
  navLabels,
  closeConsoleSite,
  openConsoleSite,
  stickyIds,
  textOf,
  type SiteUser,
} from './support.ts';

const LOG = '/cms-admin/admin.php?page=history_admin_menu_page';
const STATS = '/cms-admin/admin.php?page=history_stats_page';

for (const target of dbTargets()) {
  describe(`console pages (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;

    before(async () => ({ t, server, users, ada } = await openConsoleSite(target)));
    after(() => closeConsoleSite({ t, server }));

    test('anonymous visitors are sent to the login page and come back after logging in', async () => {
      const c = new WebClient(server);
      const res = await c.get(`${LOG}&loglevels[]=warning`);
      assert.equal(res.status, 302);
      const login = new URL(res.location!);
      assert.equal(login.pathname, '/cms-login.php');
      assert.equal(login.searchParams.get('redirect_to'), `http://localhost:8080${LOG}&loglevels[]=warning`);
      const done = await logIn(c, 'emil', PASSWORD, login.searchParams.get('redirect_to')!);
      assert.equal(done.location, `http://localhost:8080${LOG}&loglevels[]=warning`);
      assert.equal((await c.get(done.location!)).status, 200);
      // A form post of a visitor without session is not repeated after login: to the dashboard.
      const post = await new WebClient(server).post('/cms-admin/profile.php', { action: 'profile' });
      assert.equal(post.status, 303);
      assert.equal(new URL(post.location!).searchParams.get('redirect_to'), 'http://localhost:8080/cms-admin/');
    });

    test('each role sees its navigation and is refused what it may not open', async () => {
      const expected: Record<string, string[]> = {
        ada: [
          'Dashboard',
          'Activity Log',
          'Activity Statistics',
          'Pages and posts',
          'String Translation',
          'Translation Management',
          'Custom XML Configuration',
          'Appointment Settings',
          'Sliders',
          'Users',
          'Profile',
        ],
        emil: ['Dashboard', 'Activity Log', 'Pages and posts', 'Profile'],
        tom: ['Dashboard', 'Activity Log', 'String Translation', 'Translation Management', 'Profile'],
        sina: ['Dashboard', 'Activity Log', 'Profile'],
      };
      for (const [login, nav] of Object.entries(expected)) {
        const c = login === 'ada' ? ada : await consoleClient(server, login);
        const home = await c.get('/cms-admin/');
        assert.equal(home.status, 200, login);
        assert.deepEqual(navLabels(home.body), nav, login);
        for (const path of [STATS, '/cms-admin/users.php', `/cms-admin/user-edit.php?user_id=${users.sina!.id}`]) {
          const res = await c.get(path);
          assert.equal(res.status, login === 'ada' ? 200 : 403, `${login} ${path}`);
          if (res.status === 403) assert.match(res.body, /Sorry, you are not allowed to access this page\./);
        }
      }
      // Editors read the content loggers; a subscriber reads none: the log says so, the list is empty.
      const sina = await consoleClient(server, 'sina');
      assert.match((await sina.get('/cms-admin/')).body, /Your role does not let you see events of the activity log\./);
      const sinaLog = await sina.get(LOG);
      assert.equal(sinaLog.status, 200);
      assert.deepEqual(listedIds(sinaLog.body), []);
      const emilLog = await (await consoleClient(server, 'emil')).get(LOG);
      const apiIds = (
        await api(server, users.emil!, '/history/v1/events', qs.stringify(listArgs(readLogQuery({}))))
      ).body.map((e: { id: number }) => e.id);
      assert.deepEqual(
        listedIds(emilLog.body),
        apiIds
          .filter((id: number, i: number, all: number[]) => all.indexOf(id) === i)
          .slice(-listedIds(emilLog.body).length),
      );
      assert.doesNotMatch(emilLog.body, /add-entry-form/, 'no custom entries for editors');
      assert.doesNotMatch(emilLog.body, /Stick event/, 'no stick buttons for editors');
      assert.doesNotMatch(emilLog.body, /User Logger/, 'no user logger message types for editors');
    });

    test('console pages carry the security headers with our own scripts only', async () => {
      for (const path of ['/cms-admin/', LOG, STATS, '/cms-admin/profile.php', '/cms-admin/users.php']) {
        const res = await ada.get(path);
        const csp = String(res.headers['content-security-policy']);
        assert.match(csp, /default-src 'none'/, path);
        assert.match(csp, /script-src 'self'/, path);
        assert.match(csp, /connect-src 'self'/, path);
        assert.doesNotMatch(csp, /unsafe/, path);
        assert.equal(res.headers['x-frame-options'], 'DENY');
        assert.match(String(res.headers['cache-control']), /no-store/);
        // Everything the page loads comes from this site.
        for (const m of res.body.matchAll(/(?:src|href)="(https?:[^"]+)"/g))
          assert.ok(m[1]!.startsWith('http://localhost:8080/'), `${path}: ${m[1]}`);
      }
      const page = (await ada.get('/cms-admin/')).body;
      const js = /<script type="module" src="([^"]+)"/.exec(page)![1]!;
      const asset = await server.inject({ method: 'GET', url: js });
      assert.equal(asset.statusCode, 200);
      assert.match(String(asset.headers['content-type']), /^text\/javascript/);
      assert.match(String(asset.headers['cache-control']), /immutable/);
      assert.equal((await server.inject({ method: 'GET', url: '/cms-admin/assets/nothing.js' })).statusCode, 404);
      assert.equal((await ada.get('/cms-admin/admin.php?page=no_such_page')).status, 404);
    });

    test('the language: the browser’s, then the user’s own choice, switched from every page', async () => {
      const c = new WebClient(server);
      await logIn(c, 'tom', PASSWORD);
      const de = await c.get('/cms-admin/', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
      assert.match(de.body, /<html lang="de">/);
      assert.deepEqual(navLabels(de.body), [
        'Übersicht',
        'Aktivitätsprotokoll',
        'String-Übersetzung',
        'Übersetzungsverwaltung',
        'Profil',
      ]);
      assert.match(de.body, /<meta name="cms-rest-root" content="\/de\/cms-json\/">/);
      const switched = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(de.body),
        action: 'language',
        locale: 'en',
        return_to: `http://localhost:8080${LOG}`,
      });
      assert.equal(switched.status, 303);
      assert.equal(switched.location, `http://localhost:8080${LOG}`);
      const en = await c.get(LOG, { 'accept-language': 'de' });
      assert.match(en.body, /<html lang="en">/, 'the user’s choice beats the browser’s');
      const row = await t.app.db
        .selectFrom('users')
        .select('locale')
        .where('login', '=', 'tom')
        .executeTakeFirstOrThrow();
      assert.equal(row.locale, 'en');
      // An off-site return address is not followed.
      const off = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(en.body),
        action: 'language',
        locale: '',
        return_to: 'https://evil.example/',
      });
      assert.equal(off.location, 'http://localhost:8080/cms-admin/');
    });

    test('every filter lists what the API answers for the same query', async () => {
      const admin = users.ada!;
      const some = (await api(server, admin, '/history/v1/events', 'per_page=50&ungrouped=1')).body as {
        id: number;
        initiator_data: { user_id: string | null };
        context: Record<string, string>;
      }[];
      const userId = some.find((e) => e.initiator_data.user_id)!.initiator_data.user_id!;
      const postEvent = some.find((e) => e.context.post_id);
      const month = new Date().toISOString().slice(0, 7);
      const today = new Date().toISOString().slice(0, 10);
      const cases = [
        'loglevels[]=warning',
        'loglevels[]=info&loglevels_mode=exclude',
        'messages[]=SimpleUserLogger:user_logged_in,SimpleUserLogger:user_unknown_logged_in',
        'messages[]=SimpleUserLogger:user_logged_in&messages_mode=exclude',
        `users[]=${userId}`,
        `users[]=${userId}&users_mode=exclude`,
        'initiator[]=web_user',
        'initiator[]=cms_user&initiator_mode=exclude',
        'search=logged',
        'exclude_search=logged',
        'metadata_search=ada',
        'dates=lastdays:7',
        `dates=month:${month}`,
        'dates=yesterday',
        `dates=custom&date_from=2020-01-01&date_to=${today}`,
        'ip_address=198.51.100.x',
        ...(postEvent ? [`context=${encodeURIComponent(`post_id=${postEvent.context.post_id}`)}`] : []),
        'loglevels[]=info&initiator[]=cms_user&dates=lastdays:14',
      ];
      for (const query of cases) {
        const page = await ada.get(`${LOG}&${query}`);
        assert.equal(page.status, 200, `${query}: ${page.body.slice(0, 300)}`);
        const args = listArgs(readLogQuery(qs.parse(query)));
        const answer = await api(server, admin, '/history/v1/events', qs.stringify(args));
        assert.equal(answer.status, 200, query);
        const expected = answer.body
          .filter((e: { sticky_appended: boolean }) => !e.sticky_appended)
          .map((e: { id: number }) => e.id);
        assert.deepEqual(listedIds(page.body), expected, query);
        assert.match(
          textOf(page.body),
          new RegExp(`${Number(answer.headers['x-wp-total']).toLocaleString('en-GB')} (groups of )?events`),
          `${query}: total`,
        );
      }
      // A bad IP address is the API's 400, shown at its field.
      const bad = await ada.get(`${LOG}&ip_address=not-an-ip`);
      assert.equal(bad.status, 400);
      assert.match(bad.body, /id="f-ip"[^>]*aria-invalid="true"/);
      assert.match(bad.body, /role="alert"/);
      const badContext = await ada.get(`${LOG}&context=${encodeURIComponent('no equals sign')}`);
      assert.equal(badContext.status, 400);
      assert.match(badContext.body, /Context filters must be lines of the form key=value\./);
    });

    test('deep pages stay pinned to the newest id of page 1 while events arrive', async () => {
      const first = await ada.get(LOG);
      const next = /<a href="([^"]+)" rel="next"/.exec(first.body)![1]!;
      const nextUrl = decodeEntities(next);
      const maxId = Number(new URL(nextUrl).searchParams.get('max_id'));
      const before = listedIds((await ada.get(nextUrl)).body);
      await t.app.activity.log(
        { logger: 'CustomEntryLogger', messageKey: 'custom_entry_added', context: { message: 'Arrived while paging' } },
        { user: null, ip: '', initiator: 'cms' },
      );
      assert.deepEqual(listedIds((await ada.get(nextUrl)).body), before, 'page 2 did not shift');
      const answer = await api(
        server,
        users.ada!,
        '/history/v1/events',
        `per_page=20&page=2&max_id_first_page=${maxId}`,
      );
      assert.deepEqual(
        before,
        answer.body.map((e: { id: number }) => e.id),
      );
      // The page-number form jumps to a page.
      const jump = await ada.get(`${LOG}&paged=3&max_id=${maxId}`);
      assert.match(jump.body, /Page 3 of \d+/);
    });

    test('similar events: the occasions of a group, as type=occasions answers', async () => {
      const page = await ada.get(LOG);
      const m =
        /<a class="occasions-toggle" href="([^"]+)" data-occasions-id="([^"]+)" data-below="(\d+)" data-count="(\d+)"/.exec(
          page.body,
        );
      assert.ok(m, 'a group with similar events');
      const url = decodeEntities(m[1]!);
      const fragment = await ada.get(`${url}&partial=occasions`);
      assert.equal(fragment.status, 200);
      assert.doesNotMatch(fragment.body, /<html/, 'a fragment, not a page');
      const ids = [...fragment.body.matchAll(/<li class="event[^"]*" id="event-\d+" data-event-id="(\d+)"/g)].map((x) =>
        Number(x[1]),
      );
      const answer = await api(
        server,
        users.ada!,
        '/history/v1/events',
        qs.stringify({ type: 'occasions', occasionsID: decodeEntities(m[2]!), logRowID: m[3], occasionsCount: m[4] }),
      );
      assert.deepEqual(
        ids,
        answer.body.map((e: { id: number }) => e.id),
      );
      assert.equal(ids.length, Number(m[4]));
      const full = await ada.get(url);
      assert.match(full.body, /<h1>Similar events<\/h1>/, 'without the script: a page of their own');

      // A group larger than the console shows: the newest 200, and a notice of the others.
      for (let i = 0; i < 203; i++)
        await t.app.activity.log(
          {
            logger: 'SimpleOptionsLogger',
            messageKey: 'option_updated',
            date: '2025-06-01 10:00:00',
            context: { option: 'blogdescription', option_page: 'general' },
          },
          { user: null, ip: '', initiator: 'cms_cli' },
        );
      const [headRow, ...others] = await t.app.db
        .selectFrom('history_events')
        .select(['id', 'occasions_id'])
        .where('message_key', '=', 'option_updated')
        .where('date', '=', '2025-06-01 10:00:00')
        .orderBy('id', 'desc')
        .execute();
      assert.equal(others.length, 202);
      const { id: head, occasions_id } = headRow!;
      const large = new URL(url, 'http://localhost');
      large.searchParams.set('occasions_id', occasions_id);
      large.searchParams.set('below', String(head));
      large.searchParams.set('count', '202');
      const shown = await ada.get(`${large.pathname}${large.search}&partial=occasions`);
      assert.equal(shown.status, 200);
      const listed = [...shown.body.matchAll(/<li class="event[^"]*" id="event-\d+" data-event-id="(\d+)"/g)].map((x) =>
        Number(x[1]),
      );
      assert.deepEqual(
        listed,
        others.slice(0, 200).map((r) => r.id),
      );
      assert.match(shown.body, /The newest 200 are shown; 2 more are not/);
      assert.doesNotMatch(fragment.body, /are not: narrow the log/, 'a group shown whole has no notice');
    });

    test('stick and unstick: sticky events on top; a custom entry with a note', async () => {
      const target = listedIds((await ada.get(LOG)).body)[5]!;
      const page = await ada.get(LOG);
      const stuck = await ada.post(LOG, {
        _csrf: csrfOf(page.body),
        action: 'stick',
        event_id: String(target),
        return_to: `http://localhost:8080${LOG}`,
      });
      assert.equal(stuck.status, 303);
      const after = await ada.get(stuck.location!);
      assert.deepEqual(stickyIds(after.body), [target]);
      assert.match(after.body, /The event is now sticky\./);
      assert.match(after.body, /aria-label="Unstick event \d+"/);
      const unstuck = await ada.post(LOG, { _csrf: csrfOf(after.body), action: 'unstick', event_id: String(target) });
      assert.equal(unstuck.status, 303);
      assert.deepEqual(stickyIds((await ada.get(LOG)).body), []);

      const added = await ada.post(LOG, {
        _csrf: csrfOf(page.body),
        action: 'add_entry',
        message: 'Maintenance <done>',
        note: 'All good',
        level: 'notice',
      });
      assert.equal(added.status, 303);
      const list = await ada.get(added.location!);
      assert.match(list.body, /The entry was added to the log\./);
      assert.match(list.body, /Added a custom entry: Maintenance &lt;done&gt;|Maintenance &lt;done&gt;/);
      const missing = await ada.post(LOG, { _csrf: csrfOf(page.body), action: 'add_entry', message: '' });
      assert.equal(missing.status, 400, 'the API’s answer for an empty message');
      const emil = await consoleClient(server, 'emil');
      const refused = await emil.post(LOG, {
        _csrf: csrfOf((await emil.get(LOG)).body),
        action: 'add_entry',
        message: 'x',
      });
      assert.equal(refused.status, 403);
      assert.equal((await ada.post(LOG, { action: 'stick', event_id: String(target) })).status, 403, 'no CSRF token');
    });

    test('one event: its page, its fragment, and unknown ids say so', async () => {
      const id = listedIds((await ada.get(LOG)).body)[0]!;
      const single = await ada.get(`${LOG}&event=${id}`);
      assert.equal(single.status, 200);
      assert.match(single.body, new RegExp(`<h1>Event ${id}</h1>`));
      assert.match(single.body, /<details class="event-details" open>/);
      const fragment = await ada.get(`${LOG}&partial=event&event=${id}`);
      assert.equal(fragment.status, 200);
      assert.match(fragment.body, /Context of the event/);
      const unknown = await ada.get(`${LOG}&partial=event&event=99999999`);
      assert.equal(unknown.status, 404);
      assert.match(unknown.body, /There is no event with the ID 99999999\./);
      assert.equal((await ada.get(`${LOG}&event=99999999`)).status, 404);
      // An event of a logger the user may not read.
      const login = (
        await api(server, users.ada!, '/history/v1/events', 'loggers[]=SimpleUserLogger&per_page=1&ungrouped=1')
      ).body[0].id;
      const emil = await consoleClient(server, 'emil');
      const forbidden = await emil.get(`${LOG}&partial=event&event=${login}`);
      assert.equal(forbidden.status, 403);
      assert.match(forbidden.body, /You may not see the event/);
    });

    test('the details show the context, IP addresses for those allowed, and the object’s link', async () => {
      const failed = (
        await api(
          server,
          users.ada!,
          '/history/v1/events',
          'messages[]=SimpleUserLogger:user_login_failed&per_page=1&ungrouped=1',
        )
      ).body[0];
      const page = await ada.get(`${LOG}&event=${failed.id}`);
      assert.match(
        page.body,
        /IP addresses:<\/strong> <span class="ip" title="_server_remote_addr">198\.51\.100\.x<\/span>/,
      );
      assert.match(
        page.body,
        new RegExp(
          `href="http://localhost:8080/cms-admin/user-edit\\.php\\?user_id=${users.ada!.id}">Open what the event concerns`,
        ),
      );
      const custom = (await api(server, users.ada!, '/history/v1/events', 'search=Deployed&per_page=1')).body[0];
      const entry = await ada.get(`${LOG}&event=${custom.id}`);
      assert.match(
        entry.body,
        /Deployed &lt;b&gt;v2&lt;\/b&gt; &amp; &quot;more&quot;|Deployed v2 &amp; &quot;more&quot;/,
        'escaped, never markup',
      );
      assert.match(entry.body, /<dt>Entry notes<\/dt><dd>Release notes<\/dd>/);
    });

    test('every link, permalink and user_profile_url of the API opens a page', async () => {
      const seen = new Set<string>();
      for (let page = 1; page <= 4; page++) {
        const answer = await api(server, users.ada!, '/history/v1/events', `per_page=100&page=${page}&ungrouped=1`);
        for (const e of answer.body)
          for (const url of [e.link, e.permalink, e.initiator_data.user_profile_url])
            if (url) seen.add(url.split('#')[0]);
      }
      const card = await api(server, users.ada!, `/history/v1/users/${users.emil!.id}/card`);
      seen.add(card.body.profile_url);
      const options = await api(server, users.ada!, '/history/v1/search-options');
      seen.add(options.body.events_admin_page_url);
      seen.add(options.body.stats_page_url);
      assert.ok(
        [...seen].some((u) => u.includes('user-edit.php')),
        'profile links among them',
      );
      for (const url of seen) {
        const res = await ada.get(pathOf(url));
        assert.ok(res.status === 200 || res.status === 302, `${url}: ${res.status}`);
        if (res.status === 302) assert.equal((await ada.get(res.location!)).status, 200, `${url} → ${res.location}`);
      }
    });

    test('export: CSV and JSON of the filtered view, every event, streamed', async () => {
      const query = 'loglevels[]=info&initiator[]=cms_user';
      const args = filterArgs(readLogQuery(qs.parse(query)).filters);
      const expected: number[] = [];
      for (let page = 1; ; page++) {
        const answer = await api(
          server,
          users.ada!,
          '/history/v1/events',
          qs.stringify({ ...args, ungrouped: true, per_page: 100, page }),
        );
        expected.push(...answer.body.map((e: { id: number }) => e.id));
        if (answer.body.length < 100) break;
      }
      expected.sort((a, b) => b - a);
      const json = await ada.get(`${LOG}&${query}&export=json`);
      assert.equal(json.status, 200);
      assert.match(String(json.headers['content-disposition']), /^attachment; filename="activity-log-\d{12}\.json"$/);
      assert.equal(json.headers['x-export-total'], String(expected.length));
      const items = JSON.parse(json.body) as { id: number; loglevel: string; initiator: string }[];
      assert.deepEqual(
        items.map((e) => e.id),
        expected,
      );
      assert.ok(items.every((e) => e.loglevel === 'info' && e.initiator === 'cms_user'));
      const csv = await ada.get(`${LOG}&${query}&export=csv`);
      assert.match(String(csv.headers['content-type']), /^text\/csv/);
      const lines = csv.body
        .replace(/^\ufeff/, '')
        .trim()
        .split('\r\n');
      assert.equal(
        lines[0],
        'id,date_gmt,date_local,logger,loglevel,message_key,message,initiator,user_id,user_login,user_email,user_display_name,ip_addresses,occasions_id,sticky,context',
      );
      assert.deepEqual(
        lines.slice(1).map((l) => Number(l.split(',')[0])),
        expected,
      );
      // A subscriber's export holds what they may see: nothing.
      const sina = await consoleClient(server, 'sina');
      assert.deepEqual(JSON.parse((await sina.get(`${LOG}&export=json`)).body), []);
      assert.equal((await ada.get(`${LOG}&ip_address=zzz&export=csv`)).status, 400);
    });

    test('statistics: totals, charts with their tables, by logger and level, under the log’s filters', async () => {
      // (The API first: its first use of an application password logs a login.)
      const summary = await api(server, users.ada!, '/history/v1/stats/summary');
      const overview = await api(server, users.ada!, '/history/v1/stats/activity-overview');
      const page = await ada.get(`${STATS}&range=30`);
      assert.equal(page.status, 200);
      assert.match(textOf(page.body), new RegExp(`Events ${summary.body.total_events.toLocaleString('en-GB')}`));
      for (const heading of [
        'Activity over time',
        'Busiest days of the week',
        'Busiest hours of the day',
        'Most active users',
        'Events by logger',
        'Events by level',
        'Content changes',
        'Plugin changes',
      ]) {
        assert.match(page.body, new RegExp(`<h2 id="[a-z]+-heading">${heading}</h2>`), heading);
      }
      assert.equal([...page.body.matchAll(/<table/g)].length, 8, 'a table behind every chart');
      const days = [
        ...page.body.matchAll(
          /<th scope="row"><time datetime="([\d-]+)">[^<]*<\/time><\/th><td class="num">([\d,]+)<\/td>/g,
        ),
      ].map((m) => [m[1], Number(m[2]!.replace(/,/g, ''))]);
      assert.deepEqual(
        days,
        overview.body.activity_by_date.map((d: { date: string; count: string | number }) => [d.date, Number(d.count)]),
      );
      // Without filters, levels are counted in their index: as many as the events route finds.
      const levelRows = /<h2 id="levels-heading">[\s\S]*?<\/table>/.exec(page.body)![0];
      for (const m of levelRows.matchAll(/<th scope="row">([^<]+)<\/th>\s*<td class="num">(\d+)<\/td>/g)) {
        const level = m[1]!.toLowerCase();
        const counted = await api(
          server,
          users.ada!,
          '/history/v1/events',
          `loglevels[]=${level}&dates[]=lastdays:30&ungrouped=1&per_page=1`,
        );
        assert.equal(Number(m[2]), Number(counted.headers['x-wp-total']), level);
      }
      // Under a filter, the per-day counts add up to what the events route counts in the range.
      const filtered = await ada.get(`${STATS}&range=30&loglevels[]=warning`);
      const sum = [
        ...filtered.body.matchAll(/<time datetime="[\d-]+">[^<]*<\/time><\/th><td class="num">([\d,]+)<\/td>/g),
      ].reduce((s, m) => s + Number(m[1]!.replace(/,/g, '')), 0);
      const counted = await api(
        server,
        users.ada!,
        '/history/v1/events',
        'loglevels[]=warning&dates[]=lastdays:30&ungrouped=1&per_page=1',
      );
      assert.equal(sum, Number(counted.headers['x-wp-total']));
      assert.match(filtered.body, /Limited to the filters of the activity log: loglevels=warning/);
      const levels = /<h2 id="levels-heading">[\s\S]*?<\/table>/.exec(filtered.body)![0];
      assert.deepEqual(
        [...levels.matchAll(/<th scope="row">([^<]+)<\/th>/g)].map((m) => m[1]),
        ['Warning'],
      );
    });

    test('profile: name, e-mail and language saved and logged; bad input marked', async () => {
      const c = await consoleClient(server, 'sina');
      const page = await c.get('/cms-admin/profile.php');
      const saved = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'profile',
        display_name: 'Sina S.',
        email: 'sina.s@example.test',
        locale: 'de',
      });
      assert.equal(saved.status, 303);
      const after = await c.get(saved.location!);
      assert.match(after.body, /Das Profil wurde gespeichert\./);
      assert.match(after.body, /value="Sina S\."/);
      const row = await t.app.db.selectFrom('users').selectAll().where('login', '=', 'sina').executeTakeFirstOrThrow();
      assert.deepEqual([row.display_name, row.email, row.locale], ['Sina S.', 'sina.s@example.test', 'de']);
      const logged = await api(
        server,
        users.ada!,
        '/history/v1/events',
        'messages[]=SimpleUserLogger:user_updated_profile&per_page=1&ungrouped=1',
      );
      assert.equal(logged.body[0].context.user_new_user_email, 'sina.s@example.test');
      const bad = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'profile',
        display_name: 'Sina',
        email: 'ada@example.test',
        locale: 'de',
      });
      assert.equal(bad.status, 400);
      assert.match(bad.body, /Diese E-Mail-Adresse verwendet bereits ein anderer Benutzer\./);
      assert.match(bad.body, /id="email"[^>]*aria-invalid="true"/);
      assert.equal(
        (await c.post('/cms-admin/profile.php', { action: 'profile', display_name: 'x', email: 'x@example.test' }))
          .status,
        403,
        'no CSRF token',
      );
    });

    test('profile: the login password, checked against the current one; other sessions end', async () => {
      const c = await consoleClient(server, 'tom', '10.9.0.1');
      const other = await consoleClient(server, 'tom', '10.9.0.2');
      const csrf = csrfOf((await c.get('/cms-admin/profile.php')).body);
      const wrong = await c.post('/cms-admin/profile.php', {
        _csrf: csrf,
        action: 'password',
        current_password: 'wrong',
        new_password: 'new password 1',
        confirm_password: 'new password 1',
      });
      assert.equal(wrong.status, 400);
      assert.match(wrong.body, /Your current password is not correct\./);
      const differ = await c.post('/cms-admin/profile.php', {
        _csrf: csrf,
        action: 'password',
        current_password: PASSWORD,
        new_password: 'new password 1',
        confirm_password: 'new password 2',
      });
      assert.match(differ.body, /The two new passwords differ\./);
      const short = await c.post('/cms-admin/profile.php', {
        _csrf: csrf,
        action: 'password',
        current_password: PASSWORD,
        new_password: 'short',
        confirm_password: 'short',
      });
      assert.equal(short.status, 400);
      const ok = await c.post('/cms-admin/profile.php', {
        _csrf: csrf,
        action: 'password',
        current_password: PASSWORD,
        new_password: 'new password 1',
        confirm_password: 'new password 1',
      });
      assert.equal(ok.status, 303);
      assert.equal((await c.get('/cms-admin/profile.php')).status, 200, 'this session goes on');
      assert.equal((await other.get('/cms-admin/profile.php')).status, 302, 'the other one ended');
      await logIn(new WebClient(server, '10.9.0.3'), 'tom', 'new password 1');
    });

    test('application passwords live in the profile: created once shown, usable, revoked', async () => {
      const c = await consoleClient(server, 'emil');
      const page = await c.get('/cms-admin/profile.php');
      const created = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'create_app_password',
        app_name: 'Feed & "reader"',
      });
      assert.equal(created.status, 201);
      const password = /id="new_password" class="password-field" value="([^"]+)"/
        .exec(created.body)![1]!
        .replace(/ /g, '');
      assert.match(created.body, /The new password for Feed &amp; &quot;reader&quot; is shown once/);
      // The same name again is refused, as WordPress does (409), and nothing is added.
      const again = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'create_app_password',
        app_name: 'Feed & "reader"',
      });
      assert.equal(again.status, 409);
      assert.match(again.body, /Each application name should be unique\./);
      assert.match(again.body, /name="app_name" required maxlength="250" aria-invalid="true"/);
      assert.doesNotMatch(again.body, /id="new_password" class="password-field"/);
      const res = await server.inject({
        method: 'GET',
        url: '/en/cms-json/history/v1/events',
        headers: { authorization: `Basic ${Buffer.from(`emil:${password}`).toString('base64')}` },
      });
      assert.equal(res.statusCode, 200);
      const uuid = /name="uuid" value="([^"]+)"/.exec((await c.get('/cms-admin/profile.php')).body)![1]!;
      const revoked = await c.post('/cms-admin/profile.php', {
        _csrf: csrfOf(page.body),
        action: 'revoke_app_password',
        uuid,
      });
      assert.equal(revoked.status, 303);
      assert.match((await c.get(revoked.location!)).body, /The application password has been revoked\./);
      const old = await c.get('/cms-admin/application-passwords.php?rejected=1');
      assert.equal(old.status, 302, 'the old page sends people to the profile');
      assert.equal(old.location, 'http://localhost:8080/cms-admin/profile.php?rejected=1#application-passwords');
    });

    test('user-edit: role and account of another user; one’s own is the profile; the users list', async () => {
      const list = await ada.get('/cms-admin/users.php');
      assert.equal(list.status, 200);
      for (const p of ['Ada Admin', 'Emil Editor', 'Tom Translator']) assert.match(list.body, new RegExp(p));
      const own = await ada.get(`/cms-admin/user-edit.php?user_id=${users.ada!.id}`);
      assert.equal(own.status, 302);
      assert.equal(own.location, 'http://localhost:8080/cms-admin/profile.php');
      assert.equal((await ada.get('/cms-admin/user-edit.php?user_id=987654')).status, 404);
      assert.equal((await ada.get('/cms-admin/user-edit.php?user_id=abc')).status, 404);

      const victim = await consoleClient(server, 'sina', '10.8.0.1');
      const edit = `/cms-admin/user-edit.php?user_id=${users.sina!.id}`;
      const page = await ada.get(edit);
      assert.match(page.body, /Edit User: /);
      const role = await ada.post(edit, { _csrf: csrfOf(page.body), action: 'role', role: 'author' });
      assert.equal(role.status, 303);
      assert.equal(
        (await t.app.db.selectFrom('users').select('role').where('id', '=', users.sina!.id).executeTakeFirstOrThrow())
          .role,
        'author',
      );
      const disabled = await ada.post(edit, { _csrf: csrfOf(page.body), action: 'disable' });
      assert.equal(disabled.status, 303);
      assert.equal((await victim.get('/cms-admin/')).status, 302, 'a disabled user’s session ends');
      assert.match((await ada.get(disabled.location!)).body, /This account is disabled\./);
      await ada.post(edit, { _csrf: csrfOf(page.body), action: 'enable' });
      await ada.post(edit, { _csrf: csrfOf(page.body), action: 'role', role: 'subscriber' });
      // Not on oneself, and not for editors.
      const self = await ada.post('/cms-admin/user-edit.php?user_id=' + users.ada!.id, {
        _csrf: csrfOf(page.body),
        action: 'disable',
      });
      assert.equal(self.status, 403);
      const emil = await consoleClient(server, 'emil');
      assert.equal(
        (await emil.post(edit, { _csrf: csrfOf((await emil.get('/cms-admin/')).body), action: 'disable' })).status,
        403,
      );
    });
  });
}
