// Helpers of the web-page tests: a cookie-keeping client over Fastify's inject, form-token
// extraction and a log-in shortcut.
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import type { AppServices } from '../../src/site/services.ts';
import { createUser } from '../../src/auth/users.ts';
import type { UserRow } from '../../src/auth/user-rows.ts';
import { createTestApp, type DbTarget, type TestApp } from '../support/db.ts';
import { freePort } from '../support/net.ts';

export interface WebResponse {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
  setCookies: string[];
  location: string | undefined;
}

/** The path (and query) of an absolute URL of the test site, or the value itself if relative. */
export function pathOf(url: string): string {
  if (url.startsWith('/')) return url;
  const u = new URL(url);
  return u.pathname + u.search;
}

export class WebClient {
  readonly cookies = new Map<string, string>();
  readonly server: FastifyInstance;
  readonly ip: string;
  /** The Host header sent: the test site's address (SITE_URL), where the login form is shown. */
  readonly host: string;
  constructor(server: FastifyInstance, ip = '127.0.0.1', siteUrl = 'http://localhost:8080') {
    this.server = server;
    this.ip = ip;
    this.host = new URL(siteUrl).host;
  }

  cookieHeader(): string | undefined {
    if (!this.cookies.size) return undefined;
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private async send(
    method: 'GET' | 'POST',
    url: string,
    form?: Record<string, string | string[]>,
    headers: Record<string, string> = {},
  ): Promise<WebResponse> {
    const h: Record<string, string> = { host: this.host, ...headers };
    const cookie = this.cookieHeader();
    if (cookie && !('cookie' in h)) h.cookie = cookie;
    let payload: string | undefined;
    if (form) {
      const params = new URLSearchParams();
      for (const [k, v] of Object.entries(form)) for (const one of Array.isArray(v) ? v : [v]) params.append(k, one);
      payload = params.toString();
      h['content-type'] = 'application/x-www-form-urlencoded';
    }
    const res = await this.server.inject({ method, url: pathOf(url), headers: h, payload, remoteAddress: this.ip });
    const raw = res.headers['set-cookie'];
    const setCookies = raw === undefined ? [] : Array.isArray(raw) ? raw : [String(raw)];
    for (const c of setCookies) {
      const [pair, ...attrs] = c.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      if (attrs.some((a) => /^\s*max-age=0\s*$/i.test(a)) || value === '') this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return {
      status: res.statusCode,
      headers: res.headers,
      body: res.body,
      setCookies,
      location: res.headers.location as string | undefined,
    };
  }

  get(url: string, headers?: Record<string, string>): Promise<WebResponse> {
    return this.send('GET', url, undefined, headers);
  }

  post(url: string, form: Record<string, string | string[]>, headers?: Record<string, string>): Promise<WebResponse> {
    return this.send('POST', url, form, headers);
  }
}

/** The CSRF token of the (first) form of a page. */
export function csrfOf(html: string): string {
  const m = /name="_csrf" value="([^"]*)"/.exec(html);
  assert.ok(m, 'page has a CSRF field');
  return m[1]!;
}

/** The value of a named hidden or text field. */
export function fieldOf(html: string, name: string): string | undefined {
  const m = new RegExp(`name="${name}" value="([^"]*)"`).exec(html);
  return m?.[1];
}

export function decodeEntities(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#0?39;/g, "'")
    .replace(/&amp;/g, '&');
}

export async function makeUser(
  app: AppServices,
  login: string,
  password: string,
  role = 'administrator',
): Promise<UserRow> {
  return createUser(app, { login, email: `${login}@example.test`, role, password });
}

/** Logs the client in through the form; returns the final redirect response. */
export async function logIn(
  client: WebClient,
  login: string,
  password: string,
  redirectTo?: string,
): Promise<WebResponse> {
  const page = await client.get(`/cms-login.php${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ''}`);
  assert.equal(page.status, 200);
  const form: Record<string, string> = { _csrf: csrfOf(page.body), log: login, pwd: password };
  if (redirectTo !== undefined) form.redirect_to = decodeEntities(fieldOf(page.body, 'redirect_to') ?? '');
  const res = await client.post('/cms-login.php', form);
  assert.equal(res.status, 302, `login succeeds: ${res.body.slice(0, 500)}`);
  return res;
}

export const SECURITY_HEADERS: [string, RegExp][] = [
  ['content-security-policy', /frame-ancestors 'none'/],
  ['x-frame-options', /^DENY$/],
  ['x-content-type-options', /^nosniff$/],
  ['referrer-policy', /^no-referrer$/],
  ['cache-control', /no-store/],
];

export function assertSecurityHeaders(res: WebResponse, what: string): void {
  for (const [name, pattern] of SECURITY_HEADERS) {
    assert.match(String(res.headers[name] ?? ''), pattern, `${what}: header ${name}`);
  }
  const csp = String(res.headers['content-security-policy']);
  assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/, `${what}: no unsafe CSP`);
  assert.match(csp, /default-src 'none'/);
}

/**
 * createTestApp, retried when PostgreSQL migrations of parallel test files collide: Kysely's
 * Migrator looks for its own tables in every schema of the database (no
 * migrationTableSchema is set in src/db/migrate.ts), so a fresh schema created while another
 * test file's schema is being migrated can fail with `relation "kysely_migration_lock" does
 * not exist`. Only that error is retried.
 */
export async function createWebTestApp(target: DbTarget, env: Record<string, string> = {}): Promise<TestApp> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await createTestApp(target, env);
    } catch (err) {
      if (attempt >= 5 || !/kysely_migration/.test(String((err as Error).message))) throw err;
      await new Promise((r) => setTimeout(r, 50 * attempt + Math.floor(Math.random() * 100)));
    }
  }
}

export interface ListeningSite {
  t: TestApp;
  server: FastifyInstance;
  /** http://127.0.0.1:<port>, also the site's SITE_URL, so its links lead back to it. */
  siteUrl: string;
}

/** A web test app whose server listens on a free port of 127.0.0.1, for a browser to open. */
export async function listenWebTestApp(target: DbTarget): Promise<ListeningSite> {
  const port = await freePort();
  const siteUrl = `http://127.0.0.1:${port}`;
  const t = await createWebTestApp(target, { SITE_URL: siteUrl, PORT: String(port) });
  const server = await buildServer(t.app);
  await server.listen({ port, host: '127.0.0.1' });
  return { t, server, siteUrl };
}
