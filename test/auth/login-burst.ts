// The burst of issue 25 (item 3), for the figures in SECURITY.md: 300 login attempts at once from
// one address against a real server (`content-site serve`, a child process) — on the web login,
// all sharing one login nonce, and with HTTP Basic authentication — the right password being
// attempt 291. Prints what was checked, refused and logged, per database:
//   node test/auth/login-burst.ts                                   (SQLite)
//   TEST_DATABASE_URL=postgres://… node test/auth/login-burst.ts   (SQLite and PostgreSQL)
import http from 'node:http';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import { sweepLoginThrottle, WINDOW_MS } from '../../src/auth/throttle.ts';
import { killChild, seededDb, startChild } from '../reliability/child-server.ts';
import { dbTargets } from '../support/db.ts';
import { makeUser } from '../web/support.ts';

const PASSWORD = 'correct horse battery staple';
const N = 300;
const RIGHT_AT = 291;

function tally(statuses: number[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const s of statuses) out[s] = (out[s] ?? 0) + 1;
  return out;
}

/** The status of a request sent from the given local address (all of 127/8 is the loopback). */
function send(
  url: string,
  localAddress: string,
  init: { method?: string; headers: Record<string, string>; body?: string },
): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method: init.method ?? 'GET', localAddress, headers: init.headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', reject);
    req.end(init.body);
  });
}

for (const target of dbTargets()) {
  const { t } = await seededDb(target);
  const user = await makeUser(t.app, 'victim', PASSWORD);
  const appPassword = (await createAppPassword(t.app, user.id, { name: 'burst' })).password;
  const child = await startChild(t);
  try {
    const since = await t.app.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    const page = await fetch(child.url + '/cms-login.php');
    const nonce = /cms_login_nonce=([^;]+)/.exec(page.headers.get('set-cookie') ?? '')![1]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const web = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        send(child.url + '/cms-login.php', '127.0.0.1', {
          method: 'POST',
          headers: { cookie: `cms_login_nonce=${nonce}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            _csrf: csrf,
            log: 'victim',
            pwd: i + 1 === RIGHT_AT ? PASSWORD : `wrong-${i}`,
          }).toString(),
        }),
      ),
    );
    const basic = await Promise.all(
      Array.from({ length: N }, (_, i) =>
        send(child.url + '/en/cms-json/', '127.0.0.2', {
          headers: {
            authorization: `Basic ${Buffer.from(`victim:${i + 1 === RIGHT_AT ? appPassword : `wrong-${i}`}`).toString('base64')}`,
          },
        }),
      ),
    );
    const failures = await t.app.db
      .selectFrom('history_events')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('id', '>', Number(since?.id ?? 0))
      .where('message_key', 'in', ['user_login_failed', 'user_unknown_login_failed'])
      .executeTakeFirst();
    // What the server's sweeper logs once the window is over.
    const refusedLogged = await sweepLoginThrottle(t.app, Date.now() + WINDOW_MS);
    console.log(
      `${target.name}: web login ${JSON.stringify(tally(web))}, attempt ${RIGHT_AT} (right password) → ${web[RIGHT_AT - 1]}; ` +
        `Basic ${JSON.stringify(tally(basic))}, attempt ${RIGHT_AT} → ${basic[RIGHT_AT - 1]}; ` +
        `failed logins logged: ${Number(failures?.n ?? 0)}; refused attempts logged after the window: ${refusedLogged.map((r) => `${r.refused} (${r.ip})`).join(', ')}`,
    );
  } finally {
    await killChild(child, 'SIGTERM');
    await t.close();
  }
}
