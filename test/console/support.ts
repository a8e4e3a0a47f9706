// The console tests' site: a user of each role with a login password and an application
// password, a few hundred realistic events, and helpers to read the pages and ask the API the
// same questions.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../src/site/services.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import type { Role } from '../../src/auth/roles.ts';
import { createUser } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import { generateEvents } from '../../src/namespaces/history/bulk/generate.ts';
import { buildServer } from '../../src/server/http.ts';
import type { DbTarget, TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { createWebTestApp, decodeEntities, logIn, WebClient } from '../web/support.ts';

export const PASSWORD = 'console test password';

export interface SiteUser {
  id: number;
  login: string;
  role: Role;
  authorization: string;
}

export const PEOPLE: { login: string; role: Role; name: string }[] = [
  { login: 'ada', role: 'administrator', name: 'Ada Admin' },
  { login: 'emil', role: 'editor', name: 'Emil Editor' },
  { login: 'tom', role: 'translator', name: 'Tom Translator' },
  { login: 'sina', role: 'subscriber', name: 'Sina Subscriber' },
];

/** The users of PEOPLE, then `events` generated events over the last 20 days. */
export async function seedConsoleSite(app: AppServices, events = 300): Promise<Record<string, SiteUser>> {
  const users: Record<string, SiteUser> = {};
  for (const p of PEOPLE) {
    const row = await createUser(app, {
      login: p.login,
      email: `${p.login}@example.test`,
      role: p.role,
      displayName: p.name,
      password: PASSWORD,
    });
    const created = await createAppPassword(app, row.id, { name: 'console tests' });
    users[p.login] = { id: row.id, login: p.login, role: p.role, authorization: basicAuth(p.login, created.password) };
  }
  await generateEvents(app, { count: events, days: 20, seed: 7 });
  // A custom entry of Ada's with a note (details), and a failed login run (an occasions group).
  const ada = toAuthUser(
    await app.db.selectFrom('users').selectAll().where('login', '=', 'ada').executeTakeFirstOrThrow(),
  );
  await app.activity.log(
    {
      logger: 'CustomEntryLogger',
      messageKey: 'custom_entry_added',
      level: 'notice',
      context: { message: 'Deployed <b>v2</b> & "more"', note: 'Release notes' },
    },
    { user: ada, ip: '192.0.2.10' },
  );
  for (let i = 0; i < 4; i++) {
    await app.activity.log(
      {
        logger: 'SimpleUserLogger',
        messageKey: 'user_login_failed',
        level: 'warning',
        context: { login: 'ada', login_id: ada.id, _occasionsID: 'SimpleUserLogger/failed_user_login' },
      },
      { user: null, ip: '198.51.100.7', initiator: 'web_user' },
    );
  }
  return users;
}

export async function consoleClient(server: FastifyInstance, login: string, ip = '127.0.0.1'): Promise<WebClient> {
  const c = new WebClient(server, ip);
  await logIn(c, login, PASSWORD);
  return c;
}

/** GET of an API route as a user (HTTP Basic), with its JSON and headers. */
export async function api(
  server: FastifyInstance,
  user: SiteUser,
  route: string,
  query = '',
): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const res = await server.inject({
    method: 'GET',
    url: `/en/cms-json${route}${query ? `?${query}` : ''}`,
    headers: { authorization: user.authorization },
  });
  return { status: res.statusCode, body: res.json(), headers: res.headers };
}

/** Ids of the events a list page shows (the list proper, without the sticky events above it). */
export function listedIds(html: string): number[] {
  const start = html.indexOf('id="events-heading"');
  assert.ok(start >= 0, 'the page has an event list');
  const end = html.indexOf('class="pager"', start);
  return [
    ...html
      .slice(start, end < 0 ? undefined : end)
      .matchAll(/<li class="event[^"]*" id="event-\d+" data-event-id="(\d+)"/g),
  ].map((m) => Number(m[1]));
}

/** Ids of the sticky events above the list. */
export function stickyIds(html: string): number[] {
  const start = html.indexOf('class="sticky-events"');
  if (start < 0) return [];
  const end = html.indexOf('id="events-heading"', start);
  return [
    ...html.slice(start, end).matchAll(/<li class="event[^"]*" id="event-\d+-sticky" data-event-id="(\d+)"/g),
  ].map((m) => Number(m[1]));
}

/** The labels of the main navigation. */
export function navLabels(html: string): string[] {
  const nav = /<nav class="main-nav"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? '';
  return [...nav.matchAll(/<a [^>]*>([^<]*)<\/a>/g)].map((m) => decodeEntities(m[1]!));
}

export function textOf(html: string): string {
  return decodeEntities(html.replace(/<[^>]+>/g, ' ')).replace(/\s+/g, ' ');
}

export const STRINGS = '/cms-admin/admin.php?page=i18n-st/menu/string-translation.php';
export const JOBS = '/cms-admin/admin.php?page=i18n-tm/menu/translations-queue.php';

export interface ConsoleSite {
  t: TestApp;
  server: FastifyInstance;
  users: Record<string, SiteUser>;
  /** The administrator, signed in to the console. */
  ada: WebClient;
}

/** A console test site: the web test app with PEOPLE and `events` events (and `seed`'s data), its server, ada signed in. */
export async function openConsoleSite(
  target: DbTarget,
  events?: number,
  seed?: (app: AppServices) => Promise<unknown>,
): Promise<ConsoleSite> {
  const t = await createWebTestApp(target);
  const server = await buildServer(t.app);
  const users = await seedConsoleSite(t.app, events);
  await seed?.(t.app);
  return { t, server, users, ada: await consoleClient(server, 'ada') };
}

export async function closeConsoleSite(site: Partial<ConsoleSite>): Promise<void> {
  await site.server?.close();
  await site.t?.close();
}
