// SQLite and PostgreSQL must answer every GET /history/v1/events request alike: the same log
// (generated from one seed, then stuck, back-dated and appended to in the same order) on both,
// random combinations of every filter, paging and grouping (fast-check, fixed seed), each sent
// over HTTP to both servers and compared status, body and headers. The fixed cases of
// filters.test.ts check what the answers are; this checks that the two databases never part.
import { after, before, describe, mock, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { buildServer } from '../../src/server/http.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import type { Role } from '../../src/auth/roles.ts';

const BASE = '/en/cms-json/history/v1';
// The log ends at the hour before the test runs, so that the filters relative to today find events.
const NOW = new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 3_600_000);
const EVENTS = 2500;
/** UTC `YYYY-MM-DD HH:MM:SS`, `days` before NOW. */
const daysAgo = (days: number) =>
  new Date(NOW.getTime() - days * 86_400_000).toISOString().slice(0, 19).replace('T', ' ');
const monthAgo = (months: number) => {
  const d = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - months, 1));
  return d.toISOString().slice(0, 7);
};

interface Site {
  t: TestApp;
  server: FastifyInstance;
  auth: Partial<Record<Role, string>>;
}

/** The same log on a database: users, generated events, then the same writes in the same order. */
async function site(target: Parameters<typeof createTestApp>[0]): Promise<Site> {
  const t = await createTestApp(target);
  const server = await buildServer(t.app);
  const auth: Site['auth'] = {};
  for (const role of ['administrator', 'editor'] as Role[])
    auth[role] = (await userWithRole(t.app, role, `diff_${role}`)).authorization;
  await generateEvents(t.app, { count: EVENTS, days: 120, seed: 11, now: NOW });
  const post = async (url: string, payload?: Record<string, unknown>) => {
    const res = await server.inject({
      method: 'POST',
      url: BASE + url,
      headers: { authorization: auth.administrator!, 'content-type': 'application/json' },
      payload: JSON.stringify(payload ?? {}),
    });
    assert.ok(res.statusCode < 300, `${url}: ${res.statusCode} ${res.body}`);
  };
  for (const id of [3, 250, 251, 1200, 2400]) await post(`/events/${id}/stick`);
  await post('/events/251/unstick');
  // Back-dated events land between older ones and split or join their runs.
  for (const [i, date] of [daysAgo(100), daysAgo(100), daysAgo(40.3), daysAgo(1.5)].entries()) {
    await post('/events', { message: `Back-dated ${i % 2}`, level: i % 2 ? 'warning' : 'info', date });
  }
  for (let i = 0; i < 6; i++)
    await post('/events', {
      message: `Recent ${i}`,
      note: i % 3 ? 'note text' : '',
      level: 'notice',
      date: daysAgo((6 - i) / 100),
    });
  // A user's first authenticated request logs a login: made here, under the fixed clock.
  for (const role of Object.keys(auth) as Role[]) {
    const res = await server.inject({
      method: 'GET',
      url: `${BASE}/events?per_page=1`,
      headers: { authorization: auth[role]! },
    });
    assert.equal(res.statusCode, 200);
  }
  return { t, server, auth };
}

const pick = <T>(...values: T[]) => fc.constantFrom(...values);
const subset = <T>(...values: T[]) => fc.subarray(values, { minLength: 1 });
const LOGGERS = [
  'SimpleUserLogger',
  'SimplePostLogger',
  'SimpleMediaLogger',
  'SimplePluginLogger',
  'SimpleOptionsLogger',
  'SimpleCommentsLogger',
  'AvailableUpdatesLogger',
  'CustomEntryLogger',
  'NotesLogger',
  'UnknownLogger',
];
const LEVELS = ['info', 'notice', 'warning', 'error', 'debug'];
const MESSAGES = [
  'SimpleUserLogger:user_logged_in',
  'SimpleUserLogger:user_login_failed',
  'SimplePostLogger:post_updated',
  'SimplePostLogger:post_created,SimpleMediaLogger:attachment_created',
  'CustomEntryLogger:custom_entry_added',
];
const WORDS = [
  'about',
  'logged',
  'pricing',
  'forms',
  'deployment',
  'anna',
  'failed',
  'über',
  'faq',
  'ÜBER',
  'logo.png',
  'x',
];
const DATES = ['lastdays:7', 'lastdays:30', `month:${monthAgo(0)}`, `month:${monthAgo(3)}`, 'yesterday', 'allDates'];

/** One filter of GET /events as [name, value]; values in the shapes the query string carries. */
const filter: fc.Arbitrary<[string, unknown]> = fc.oneof(
  fc.tuple(pick('loglevels', 'exclude_loglevels'), subset(...LEVELS)),
  fc.tuple(pick('loggers', 'exclude_loggers'), subset(...LOGGERS)),
  fc.tuple(pick('messages', 'exclude_messages'), subset(...MESSAGES)),
  fc.tuple(pick('users', 'exclude_users'), subset('1', '2', '3', '99')),
  fc.tuple(pick('user', 'exclude_user'), pick('1', '2')),
  fc.tuple(pick('initiator', 'exclude_initiator'), pick('cms_user', 'web_user', 'cms', 'cms_cli', 'other')),
  fc.tuple(pick('initiator'), subset('web_user', 'cms', 'cms_cli')),
  fc.tuple(pick('ip_address'), pick('10.0.x.x', '172.16.x.x', '203.0.113.x', '127.0.0.x', '192.168.1.x', '10.x.x.x')),
  fc.tuple(
    pick('search', 'exclude_search', 'metadata_search'),
    fc.array(pick(...WORDS), { minLength: 1, maxLength: 3 }).map((w) => w.join(' ')),
  ),
  fc.tuple(
    pick('context_filters'),
    pick(
      { post_type: 'page' },
      { post_title: 'About us' },
      { plugin_name: 'Forms', plugin_prev_version: '2.0' },
      { login: 'anna' },
      { message: 'Recent 2' },
    ),
  ),
  fc.tuple(pick('dates'), subset(...DATES)),
  fc.tuple(pick('months'), subset(monthAgo(0), monthAgo(1), monthAgo(3), monthAgo(5))),
  fc.tuple(pick('lastdays'), fc.integer({ min: 1, max: 60 })),
  fc.tuple(
    pick('date_from', 'date_to'),
    pick(
      daysAgo(90).slice(0, 10),
      daysAgo(45).slice(0, 10),
      daysAgo(2).slice(0, 10),
      String(Math.floor(NOW.getTime() / 1000) - 20 * 86_400),
    ),
  ),
  fc.tuple(pick('include'), fc.array(fc.integer({ min: 1, max: EVENTS + 12 }), { minLength: 1, maxLength: 6 })),
  fc.tuple(pick('since_id', 'max_id_first_page'), fc.integer({ min: 1, max: EVENTS + 12 })),
  fc.tuple(pick('since_date'), pick(daysAgo(14), daysAgo(0.5))),
  fc.tuple(pick('include_sticky', 'only_sticky', 'ungrouped', 'skip_count_query'), fc.boolean()),
  fc.tuple(pick('offset'), fc.integer({ min: 0, max: 40 })),
);

const request = fc.record({
  filters: fc.array(filter, { maxLength: 4 }),
  per_page: fc.integer({ min: 1, max: 50 }),
  page: fc.integer({ min: 1, max: 4 }),
  role: pick<Role>('administrator', 'editor'),
  lang: pick('en', 'de'),
});

function queryString(filters: [string, unknown][], extra: Record<string, unknown>): string {
  const parts: string[] = [];
  const add = (key: string, value: unknown) => parts.push(`${key}=${encodeURIComponent(String(value))}`);
  for (const [name, value] of [...filters, ...Object.entries(extra)]) {
    if (Array.isArray(value)) for (const v of value) add(`${name}[]`, v);
    else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) add(`${name}[${k}]`, v);
    else add(name, value);
  }
  return parts.join('&');
}

const COMPARED_HEADERS = ['x-wp-total', 'x-wp-totalpages', 'link', 'x-history-maxid', 'x-history-maxdate', 'allow'];

describe('SQLite and PostgreSQL give the same answers to random event queries', {
  skip: dbTargets().length < 2 ? 'TEST_DATABASE_URL not set: needs both databases' : false,
}, () => {
  let sites: Site[] = [];
  before(async () => {
    // Writes without a date (stick and unstick log events too) are dated by the clock: one
    // fixed clock for both sites.
    mock.timers.enable({ apis: ['Date'], now: NOW.getTime() + 1_800_000 });
    try {
      sites = await Promise.all(dbTargets().map(site));
    } finally {
      mock.timers.reset();
    }
  });
  after(async () => {
    for (const s of sites) {
      await s.server.close();
      await s.t.close();
    }
  });

  const ask = async (s: Site, url: string, role: Role) => {
    const res = await s.server.inject({ method: 'GET', url, headers: { authorization: s.auth[role]! } });
    const headers = Object.fromEntries(COMPARED_HEADERS.map((h) => [h, res.headers[h]]));
    return { status: res.statusCode, headers, body: res.json() as unknown };
  };

  test('the generated logs are the same', async () => {
    const [a, b] = await Promise.all(
      sites.map((s) => ask(s, `${BASE}/events?ungrouped=1&per_page=100&page=7`, 'administrator')),
    );
    assert.equal(a.status, 200);
    assert.equal((a.body as unknown[]).length, 100);
    assert.deepEqual(b, a);
  });

  test('every random request', async () => {
    let nonEmpty = 0;
    await fc.assert(
      fc.asyncProperty(request, async ({ filters, per_page, page, role, lang }) => {
        const url = `/${lang}/cms-json/history/v1/events?${queryString(filters, { per_page, page })}`;
        const [a, b] = await Promise.all(sites.map((s) => ask(s, url, role)));
        assert.deepEqual(b, a, url);
        if (a.status === 200 && (a.body as unknown[]).length) nonEmpty++;
      }),
      { seed: 20261123, numRuns: 300 },
    );
    // The property is only worth something if many requests found events.
    assert.ok(nonEmpty > 100, `only ${nonEmpty} of 300 requests found events`);
  });

  test('has-updates with random filters', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(filter, { maxLength: 3 }),
        fc.integer({ min: 1, max: EVENTS + 12 }),
        async (filters, sinceId) => {
          const url = `${BASE}/events/has-updates?${queryString(
            filters.filter(([name]) => name !== 'since_id'),
            { since_id: sinceId },
          )}`;
          const [a, b] = await Promise.all(sites.map((s) => ask(s, url, 'administrator')));
          assert.deepEqual(b, a, url);
        },
      ),
      { seed: 20261124, numRuns: 100 },
    );
  });

  test('statistics, cards and search options', async () => {
    const STATS = [
      'summary',
      'users',
      'content',
      'media',
      'plugins',
      'core',
      'peak-days',
      'peak-times',
      'activity-overview',
      'notes',
    ];
    const unix = (days: number) => Math.floor(NOW.getTime() / 1000) - Math.round(days * 86_400);
    const statsRequest = fc.record(
      {
        date_from: fc.integer({ min: 0, max: 130 }).map(unix),
        date_to: fc.integer({ min: -1, max: 60 }).map(unix),
        limit: fc.integer({ min: 1, max: 100 }),
        include_details: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      // (stats are for administrators only)
      fc.asyncProperty(pick(...STATS), statsRequest, async (route, params) => {
        const url = `${BASE}/stats/${route}?${queryString([], params)}`;
        const [a, b] = await Promise.all(sites.map((s) => ask(s, url, 'administrator')));
        assert.deepEqual(b, a, url);
      }),
      { seed: 20261125, numRuns: 120 },
    );
    for (const url of [
      '/search-options',
      '/users/1/card',
      '/users/2/card',
      '/initiators/web_user/card',
      '/initiators/cms/card',
      '/initiators/cms_cli/card',
      '/initiators/other/card',
      '/backfill-status',
    ]) {
      const [a, b] = await Promise.all(sites.map((s) => ask(s, BASE + url, 'administrator')));
      assert.equal(a.status, 200, url);
      assert.deepEqual(b, a, url);
    }
  });

  test('occasions expansion and surrounding events', async () => {
    const [list] = await Promise.all(sites.map((s) => ask(s, `${BASE}/events?per_page=50`, 'administrator')));
    const groups = (list.body as { id: number; occasions_id: string; subsequent_occasions_count: number }[]).filter(
      (e) => e.subsequent_occasions_count > 1,
    );
    assert.ok(groups.length > 0, 'the first page has grouped occasions');
    for (const g of groups) {
      for (const url of [
        `${BASE}/events?type=occasions&logRowID=${g.id}&occasionsID=${g.occasions_id}&occasionsCount=${g.subsequent_occasions_count - 1}`,
        `${BASE}/events?type=occasions&logRowID=${g.id}&occasionsID=${g.occasions_id}&occasionsCount=${g.subsequent_occasions_count}&occasionsCountMaxReturn=2`,
        `${BASE}/events?surrounding_event_id=${g.id}&surrounding_count=3`,
      ]) {
        const [a, b] = await Promise.all(sites.map((s) => ask(s, url, 'administrator')));
        assert.equal(a.status, 200, url);
        assert.deepEqual(b, a, url);
      }
    }
  });
});
