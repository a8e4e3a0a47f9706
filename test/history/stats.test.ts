// Statistics, cards and search options against the known data set, on every database.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { loadFixture, statsParams, storedMediaEvents, type Fixture } from './fixture.ts';
import { initiatorCard, searchUsers, userCard } from '../../src/namespaces/history/reports/cards.ts';
import { buildEmailReport } from '../../src/namespaces/history/reports/email-report.ts';
import { statsActivityOverview, statsPeakDays, statsPeakTimes } from '../../src/namespaces/history/stats/times.ts';
import {
  statsContent,
  statsCore,
  statsNotes,
  statsPlugins,
  statsUsers,
} from '../../src/namespaces/history/stats/details.ts';
import { statsMedia } from '../../src/namespaces/history/stats/media.ts';
import { ListedBody, materialized } from '../../src/rest/json-list.ts';
import { statsSummary } from '../../src/namespaces/history/stats/summary.ts';
import { searchOptions } from '../../src/namespaces/history/reports/search-options.ts';
import { callRoute } from '../support/http.ts';

// 2025-01-01 00:00:00 UTC … 2025-03-31 23:59:59 UTC: every fixed-date fixture event.
const RANGE = { date_from: 1735689600, date_to: 1743465599 };

for (const target of dbTargets()) {
  describe(`stats, cards and search options (${target.name})`, () => {
    let t: TestApp;
    let fx: Fixture;
    before(async () => {
      t = await createTestApp(target);
      fx = await loadFixture(t.app);
    });
    after(() => t.close());

    test('summary counts per the reference rules', async () => {
      const s = await statsSummary(t.app, statsParams(RANGE));
      assert.deepEqual(s.date_range.from, RANGE.date_from);
      assert.equal(s.date_range.duration_days, 90);
      assert.equal(s.total_events, 16);
      assert.equal(s.total_events_since_install, 18);
      assert.deepEqual(s.totals, {
        users: { logins: 2, failed_logins: 4, profile_updates: 0, total: 7 },
        content: { created: 1, updated: 2, deleted: 0, total: 3 },
        media: { uploads: 1, edits: 0, deletions: 0, total: 1 },
        plugins: { updates: 0, installations: 0, activations: 1, total: 1 },
        core: { updates: 0, available_updates: 0, total: 0 },
        notes: { added: 0, resolved: 0, total: 0 },
      });
    });

    test('default range: the last 30 days to the end of today', async () => {
      const s = await statsSummary(t.app, statsParams({}));
      assert.equal(s.total_events, 2, 'only the events of yesterday and today');
      assert.ok(
        s.date_range.duration_days === 30 || s.date_range.duration_days === 31,
        'plus one hour across a DST change',
      );
    });

    test('details', async () => {
      const users = (await statsUsers(t.app, statsParams({ ...RANGE, include_details: true, limit: 50 }))) as {
        details: Record<string, Record<string, unknown>[]>;
      };
      assert.deepEqual(users.details.successful_logins.map((l) => [l.user_login, l.login_count]).sort(), [
        ['admin', '1'],
        ['editor', '1'],
      ]);
      assert.deepEqual(users.details.failed_logins, [
        { date: '2025-03-01 00:00:00', attempted_username: 'admin', failed_count: '4' },
      ]);
      assert.deepEqual(
        users.details.added_users.map((u) => u.user_login),
        ['author'],
      );
      const limited = (await statsUsers(t.app, statsParams({ ...RANGE, include_details: true, limit: 1 }))) as {
        details: Record<string, unknown[]>;
      };
      assert.equal(limited.details.successful_logins.length, 1);
      const content = (await statsContent(t.app, statsParams({ ...RANGE, include_details: true }))) as {
        details: Record<string, Record<string, unknown>[]>;
      };
      assert.deepEqual(content.details.content_items_created_details, [
        {
          created_date: '2025-01-11 09:00:00',
          post_id: '5',
          post_title: 'About us',
          post_type: 'page',
          created_by_id: String(fx.users.editor.id),
        },
      ]);
      assert.equal(content.details.content_items_updated_details.length, 2);
      const listed = await statsMedia(t.app, statsParams({ ...RANGE, include_details: true }));
      assert.ok(listed instanceof ListedBody);
      const media = (await materialized(listed.value)) as {
        details: { uploads: { context: Record<string, string> }[] };
      };
      assert.equal(media.details.uploads[0].context.attachment_filename, 'logo.png');
      const plugins = (await statsPlugins(t.app, statsParams({ ...RANGE, include_details: true }), 'en')) as {
        summary: Record<string, number>;
        details: { activations: { name: string }[] };
      };
      assert.deepEqual(plugins.summary, {
        updates: 0,
        installations: 0,
        activations: 1,
        available_updates: 0,
        total: 1,
      });
      assert.equal(plugins.details.activations[0].name, 'Forms');
      assert.deepEqual((await statsCore(t.app, statsParams(RANGE))).summary, {
        updates: 0,
        available_updates: 0,
        total: 0,
      });
      assert.deepEqual((await statsNotes(t.app, statsParams(RANGE))).summary, { added: 0, resolved: 0, total: 0 });
    });

    test('GET /stats/media with details: every media event of the range, whole, with its stored context', async () => {
      const res = await callRoute(t.app, 'GET', '/history/v1/stats/media', {
        query: { ...RANGE, include_details: 1 },
        user: fx.users.admin,
      });
      assert.equal(res.status, 200);
      const details = (res.body as { details: Record<string, unknown[]> }).details;
      const stored = (key: string) => storedMediaEvents(t.app, key, '2025-01-01 00:00:00', '2025-03-31 23:59:59');
      const uploads = await stored('attachment_created');
      assert.ok(uploads.length > 0);
      assert.deepEqual(details.uploads, uploads);
      assert.deepEqual(details.edits, await stored('attachment_updated'));
      assert.deepEqual(details.deletions, await stored('attachment_deleted'));
    });

    test('peak days, peak times and the daily overview in site time', async () => {
      const days = await statsPeakDays(t.app, statsParams(RANGE), 'en');
      assert.equal(
        days.peak_days.reduce((n, d) => n + Number(d.count), 0),
        16,
      );
      // 2025-01-10 (Friday) has the admin login and three failed logins.
      assert.ok(days.peak_days.some((d) => d.day === '5' && d.day_name === 'Friday' && Number(d.count) >= 4));
      const times = await statsPeakTimes(t.app, statsParams(RANGE));
      assert.equal(
        times.peak_times.reduce((n, d) => n + Number(d.count), 0),
        16,
      );
      assert.ok(
        times.peak_times.some((h) => h.hour === '11' && h.time_span === '11:00-11:59'),
        '10:0x UTC is 11:0x in Berlin',
      );
      const overview = await statsActivityOverview(t.app, statsParams(RANGE));
      const byDay = new Map(overview.activity_by_date.map((d) => [d.date, d.count]));
      assert.equal(byDay.get('2025-01-10'), '4');
      assert.equal(byDay.get('2025-02-01'), '1');
      assert.equal(byDay.get('2025-02-02'), '1', '23:30 UTC on Feb 1 is Feb 2 in Berlin');
      assert.equal(byDay.get('2025-01-02'), 0);
      assert.equal(overview.activity_by_date[0].date, '2025-01-01');
    });

    test('cards, user search, search options', async () => {
      const card = await userCard(t.app, fx.users.editor.id, fx.users.admin, 'de');
      assert.equal(card.user_login, 'editor');
      assert.deepEqual(card.roles, ['editor']);
      assert.equal(card.actions[0].label, 'Benutzerprofil ansehen');
      const web = await initiatorCard(t.app, 'web_user', fx.users.admin, 'en');
      assert.deepEqual(
        web.details.map((d) => d.value),
        [0, 0, 5],
      );
      const editorView = await initiatorCard(t.app, 'web_user', fx.users.editor, 'en');
      assert.equal(editorView.details[2].value, 1, 'only the comment is readable for editors');
      assert.deepEqual(
        (await searchUsers(t.app, 'edit')).map((u) => u.user_login),
        ['editor'],
      );
      assert.deepEqual(
        (await searchUsers(t.app, String(fx.users.author.id))).map((u) => u.user_login),
        ['author'],
      );
      const options = await searchOptions(t.app, fx.users.admin, 'en');
      assert.deepEqual(options.dates.result_months.slice(-3), [
        { yearMonth: '2025-03' },
        { yearMonth: '2025-02' },
        { yearMonth: '2025-01' },
      ]);
      assert.equal(options.stats.num_events_today, 1);
      assert.deepEqual(
        options.initiators.map((i) => i.value),
        ['cms_user', 'web_user', 'cms', 'cms_cli', 'other'],
      );
      const user = options.loggers.find((l) => l.slug === 'SimpleUserLogger')!;
      assert.deepEqual((user.search_data as { search: { options: string[] } }).search.options.slice(0, 2), [
        'SimpleUserLogger:user_logged_in',
        'SimpleUserLogger:user_unknown_logged_in',
      ]);
      const editorOptions = await searchOptions(t.app, fx.users.editor, 'de');
      assert.ok(
        editorOptions.loggers.every((l) =>
          [
            'CustomEntryLogger',
            'NotesLogger',
            'PluginEnableMediaReplaceLogger',
            'SimpleCommentsLogger',
            'SimpleLogger',
            'SimpleMediaLogger',
            'SimplePostLogger',
            'ContentLogger',
          ].includes(l.slug),
        ),
      );
      assert.equal(editorOptions.loggers.find((l) => l.slug === 'SimplePostLogger')!.name, 'Beitrags-Protokoll');
    });

    test('email report data of the last 7 days', async () => {
      const report = await buildEmailReport(t.app, 'en');
      assert.equal(report.total_events_this_week, 2);
      assert.equal(report.days.length, 7);
      assert.equal(report.most_active_users.length, 3);
      assert.equal(report.successful_logins, 0);
    });
  });
}
