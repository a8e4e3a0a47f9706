// One's application passwords in the console's profile (formerly their own page, whose tests
// these were): login requirement, only one's own listed, escaped, times in the site's zone,
// revoking with CSRF. Runs on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { createAppPassword, listAppPasswords } from '../../src/auth/app-passwords.ts';
import { buildServer } from '../../src/server/http.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { basicAuth } from '../support/http.ts';
import { WebClient, assertSecurityHeaders, createWebTestApp, csrfOf, logIn, makeUser } from '../web/support.ts';

const PASSWORD = 'a long interactive password';
const PROFILE = '/cms-admin/profile.php';
const APP_ID = '7d0b1c2e-5a3f-4b6c-8d9e-0f1a2b3c4d5e';

async function restStatus(server: FastifyInstance, path: string, authorization: string): Promise<number> {
  return (await server.inject({ method: 'GET', url: path, headers: { authorization } })).statusCode;
}

for (const target of dbTargets()) {
  describe(`application passwords in the profile (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let c: WebClient;
    let aliceId: number;
    let bobId: number;
    before(async () => {
      t = await createWebTestApp(target);
      server = await buildServer(t.app);
      aliceId = (await makeUser(t.app, 'alice', PASSWORD)).id;
      bobId = (await makeUser(t.app, 'bob', PASSWORD)).id;
      c = new WebClient(server);
      await logIn(c, 'alice', PASSWORD);
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('requires login; the old address leads here', async () => {
      const res = await new WebClient(server).get(PROFILE);
      assert.equal(res.status, 302);
      assert.equal(new URL(res.location!).searchParams.get('redirect_to'), `http://localhost:8080${PROFILE}`);
      const old = await new WebClient(server).post('/cms-admin/application-passwords.php', {});
      assert.equal(old.status, 303);
      assert.equal(old.location, `http://localhost:8080${PROFILE}#application-passwords`);
    });

    test('lists only your own passwords with name, app id, created, last used and last IP (escaped)', async () => {
      const empty = await c.get(PROFILE);
      assert.equal(empty.status, 200);
      assertSecurityHeaders(empty, 'profile');
      assert.match(empty.body, /You have no application passwords yet\./);
      const used = await createAppPassword(t.app, aliceId, { name: 'Used <b>one</b> & "quoted"', appId: APP_ID });
      await createAppPassword(t.app, aliceId, { name: 'Fresh' });
      await createAppPassword(t.app, bobId, { name: 'Bobs secret app' });
      assert.equal(await restStatus(server, '/en/cms-json/', basicAuth('alice', used.password)), 200);
      assert.doesNotMatch((await c.get(PROFILE)).body, /Bobs secret app/);
      // Times in the site's time zone (Kathmandu: UTC+05:45, so no whole-hour shift passes by chance).
      const zoneBefore = t.app.options.get('timezone_string');
      await t.app.options.set('timezone_string', 'Asia/Kathmandu');
      let res: Awaited<ReturnType<typeof c.get>>;
      let unknownZone: Awaited<ReturnType<typeof c.get>>;
      try {
        res = await c.get(PROFILE);
        // A zone the option cannot name: UTC, as the rest of the site falls back.
        await t.app.options.set('timezone_string', 'Not/A_Zone');
        unknownZone = await c.get(PROFILE);
      } finally {
        await t.app.options.set('timezone_string', zoneBefore);
      }
      assert.match(res.body, /<th scope="col">Last IP<\/th>/);
      assert.match(res.body, /<th scope="row" data-label="Name">Used one &amp; &quot;quoted&quot;<\/th>/);
      assert.match(res.body, new RegExp(`<td data-label="App ID"><span class="url">${APP_ID}</span></td>`));
      const [stored] = (await listAppPasswords(t.app, aliceId)).filter((p) => p.uuid === used.uuid);
      const shifted = (iso: string) =>
        new Date(Date.parse(`${iso}Z`) + (5 * 60 + 45) * 60_000).toISOString().slice(0, 19).replace('T', ' ');
      assert.match(res.body, /\(times in Asia\/Kathmandu\)/);
      assert.equal(unknownZone.status, 200);
      assert.match(unknownZone.body, /\(times in UTC\)/);
      assert.ok(
        res.body.includes(`<td data-label="Created" class="nowrap">${shifted(stored!.created)}</td>`),
        shifted(stored!.created),
      );
      assert.ok(res.body.includes(`<td data-label="Last Used" class="nowrap">${shifted(stored!.last_used!)}</td>`));
      assert.match(
        res.body,
        /<td data-label="Last Used" class="nowrap">\d{4}-\d\d-\d\d \d\d:\d\d:\d\d<\/td>\s*<td data-label="Last IP" class="nowrap">127\.0\.0\.1<\/td>/,
      );
      assert.match(
        res.body,
        /<th scope="row" data-label="Name">Fresh<\/th>[\s\S]*?<td data-label="Last Used" class="nowrap">Never<\/td>/,
      );
      assert.match(res.body, /aria-label="Revoke “Fresh”"/);
      const de = await c.get(PROFILE, { 'accept-language': 'de' });
      assert.match(de.body, /<th scope="col">Zuletzt verwendet<\/th>/);
      assert.match(de.body, /\(Zeiten in Europe\/Berlin\)/);
    });

    test('revoke: POST with CSRF; without → 403; someone else’s → 404', async () => {
      const victim = await createAppPassword(t.app, aliceId, { name: 'To revoke' });
      const bobs = await createAppPassword(t.app, bobId, { name: 'Bob keeps this' });
      const token = csrfOf((await c.get(PROFILE)).body);
      const forged = await c.post(PROFILE, { action: 'revoke_app_password', uuid: victim.uuid });
      assert.equal(forged.status, 403);
      assert.equal(await restStatus(server, '/en/cms-json/', basicAuth('alice', victim.password)), 200, 'still valid');
      const res = await c.post(PROFILE, { _csrf: token, action: 'revoke_app_password', uuid: victim.uuid });
      assert.equal(res.status, 303);
      assert.equal(res.location, `http://localhost:8080${PROFILE}?done=revoked`);
      assert.match((await c.get(res.location!)).body, /The application password has been revoked\./);
      assert.equal(
        await restStatus(server, '/en/cms-json/', basicAuth('alice', victim.password)),
        401,
        'revoked password refused',
      );
      const foreign = await c.post(PROFILE, { _csrf: token, action: 'revoke_app_password', uuid: bobs.uuid });
      assert.equal(foreign.status, 404);
      assert.match(foreign.body, /Application password not found\./);
      assert.equal(
        await restStatus(server, '/en/cms-json/', basicAuth('bob', bobs.password)),
        200,
        "bob's password untouched",
      );
      const logged = await t.app.db
        .selectFrom('history_events')
        .select('message_key')
        .where('message_key', '=', 'user_application_password_revoked')
        .execute();
      assert.equal(logged.length, 1);
    });
  });
}
