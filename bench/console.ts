// `node bench/console.ts`: the console's first render at 1,000,000 activity-log events —
// server time of each page (sequential GETs over HTTP on 127.0.0.1 by a signed-in
// administrator: median, p95, max) and time to interactive in headless Chromium (navigation
// start to the page's script having run: the `console-ready` mark; median of 5 loads).
// Targets (issue 30): ≤ 200 ms server time, ≤ 1 s to interactive.
//
// SQLite always; PostgreSQL too when BENCH_DATABASE_URL is set (a schema of its own, dropped
// at the end). BENCH_EVENTS sets the log's size (default 1,000,000).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import crypto from 'node:crypto';
import { pino } from 'pino';
import { openApp } from '../src/app.ts';
import type { AppServices } from '../src/site/services.ts';
import { createUser } from '../src/auth/users.ts';
import { loadConfig } from '../src/config.ts';
import { createPgSchema, dropPgSchema } from '../src/db/index.ts';
import { generateEvents } from '../src/namespaces/history/bulk/generate.ts';
import { buildServer } from '../src/server/http.ts';
import { freePort } from '../test/support/net.ts';
import { launchChromium } from '../test/support/browser.ts';

const EVENTS = Number(process.env.BENCH_EVENTS ?? 1_000_000);
const PG_URL = process.env.BENCH_DATABASE_URL || null;
const RUNS = 15;
const LOADS = 5;
const PASSWORD = 'console bench password';

const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!;

/** Signs in through the login form; returns the Cookie header of the session. */
async function signIn(site: string): Promise<string> {
  const form = await fetch(`${site}/cms-login.php`);
  const nonce = /cms_login_nonce=([^;]+)/.exec(form.headers.get('set-cookie') ?? '')![1]!;
  const csrf = /name="_csrf" value="([^"]+)"/.exec(await form.text())![1]!;
  const res = await fetch(`${site}/cms-login.php`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: `cms_login_nonce=${nonce}`, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _csrf: csrf, log: 'benchadmin', pwd: PASSWORD }).toString(),
  });
  const session = /cms_session=([^;]+)/.exec(res.headers.get('set-cookie') ?? '')?.[1];
  if (!session) throw new Error(`login failed: ${res.status}`);
  return `cms_session=${session}`;
}

async function serverTimes(site: string, cookie: string, url: string): Promise<number[]> {
  const times: number[] = [];
  for (let i = -3; i < RUNS; i++) {
    const t0 = performance.now();
    const res = await fetch(site + url, { headers: { cookie }, redirect: 'manual' });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
    if (i >= 0) times.push(performance.now() - t0);
  }
  return times;
}

async function benchDatabase(
  name: string,
  app: AppServices,
  site: string,
  port: number,
  rows: string[],
): Promise<void> {
  let t0 = performance.now();
  await generateEvents(app, { count: EVENTS, days: 365 });
  console.log(
    `${name}: ${EVENTS.toLocaleString('en')} events generated in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await createUser(app, {
    login: 'benchadmin',
    email: 'benchadmin@example.test',
    role: 'administrator',
    password: PASSWORD,
    displayName: 'Bench Admin',
  });
  const server = await buildServer(app);
  await server.listen({ port, host: '127.0.0.1' });
  try {
    const cookie = await signIn(site);
    const first = await fetch(`${site}/cms-admin/admin.php?page=history_admin_menu_page`, { headers: { cookie } });
    const html = await first.text();
    const maxId = /data-newest-id="(\d+)"/.exec(html)![1]!;
    const pages = Number(/Page 1 of ([\d,]+)/.exec(html)![1]!.replace(/,/g, ''));
    const eventId = /data-event-id="(\d+)"/.exec(html)![1]!;
    const LOG = '/cms-admin/admin.php?page=history_admin_menu_page';
    const urls: [string, string][] = [
      ['dashboard', '/cms-admin/'],
      ['activity log', LOG],
      ['activity log, page 2', `${LOG}&paged=2&max_id=${maxId}`],
      [
        `activity log, page ${Math.floor(pages / 2).toLocaleString('en')} of ${pages.toLocaleString('en')}`,
        `${LOG}&paged=${Math.floor(pages / 2)}&max_id=${maxId}`,
      ],
      [`activity log, last page`, `${LOG}&paged=${pages}&max_id=${maxId}`],
      ['activity log, warnings of the last 30 days', `${LOG}&loglevels[]=warning&dates=lastdays:30`],
      ['activity log, search', `${LOG}&search=updated`],
      ['activity log, one event', `${LOG}&event=${eventId}`],
      ['statistics, 30 days', '/cms-admin/admin.php?page=history_stats_page'],
      ['statistics, 365 days', '/cms-admin/admin.php?page=history_stats_page&range=365'],
      ['statistics, 30 days, warnings', '/cms-admin/admin.php?page=history_stats_page&loglevels[]=warning'],
      ['profile', '/cms-admin/profile.php'],
      ['users', '/cms-admin/users.php'],
    ];
    const browser = await launchChromium();
    try {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const [cookieName, cookieValue] = cookie.split('=') as [string, string];
      await context.addCookies([{ name: cookieName, value: cookieValue, url: site }]);
      const page = await context.newPage();
      for (const [label, url] of urls) {
        t0 = performance.now();
        const times = await serverTimes(site, cookie, url);
        const ready: number[] = [];
        for (let i = 0; i < LOADS; i++) {
          await page.goto(site + url, { waitUntil: 'load' });
          // Polled over the debugging protocol (waitForFunction would evaluate a string in the page, which its CSP forbids).
          let mark: number | null = null;
          for (let tries = 0; mark === null && tries < 500; tries++) {
            mark = (await page.evaluate("performance.getEntriesByName('console-ready')[0]?.startTime ?? null")) as
              | number
              | null;
            if (mark === null) await new Promise((r) => setTimeout(r, 10));
          }
          if (mark === null) throw new Error(`${url}: the page's script did not finish`);
          ready.push(mark);
        }
        const ok = quantile(times, 0.5) <= 200 && quantile(ready, 0.5) <= 1000;
        rows.push(
          `| ${name} | ${label} | ${quantile(times, 0.5).toFixed(0)} | ${quantile(times, 0.95).toFixed(0)} | ${Math.max(...times).toFixed(0)} | ${quantile(ready, 0.5).toFixed(0)} | ${ok ? 'met' : 'missed'} |`,
        );
        console.log(rows.at(-1));
      }
    } finally {
      await browser.close();
    }
  } finally {
    await server.close();
  }
}

const rows: string[] = [];
const started = Date.now();
const targets: { name: string; url: string; schema?: string }[] = [{ name: 'sqlite', url: '' }];
if (PG_URL)
  targets.push({ name: 'postgres', url: PG_URL, schema: `bench_console_${crypto.randomBytes(4).toString('hex')}` });
for (const target of targets) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-console-bench-'));
  const port = await freePort();
  const site = `http://127.0.0.1:${port}`;
  if (target.schema) await createPgSchema(target.url, target.schema);
  const config = loadConfig({
    DATABASE_URL: target.schema ? target.url : `sqlite:${path.join(dir, 'site.db')}`,
    DATA_DIR: dir,
    PORT: String(port),
    SITE_URL: site,
  });
  const app = await openApp(config, { pgSchema: target.schema, logger: pino({ level: 'warn' }) });
  try {
    await benchDatabase(target.name, app, site, port, rows);
  } finally {
    await app.close();
    if (target.schema) await dropPgSchema(target.url, target.schema);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
console.log(
  `\nConsole pages at ${EVENTS.toLocaleString('en')} events (${os.cpus().length} × ${os.cpus()[0]?.model.trim()}, Node ${process.version}; took ${Math.round((Date.now() - started) / 1000)} s):\n`,
);
console.log(
  '| database | page | server median ms | p95 ms | max ms | to interactive, median ms | target (≤ 200 ms, ≤ 1 s) |',
);
console.log('|---|---|---:|---:|---:|---:|---|');
for (const row of rows) console.log(row);
