// Disabling and enabling a user are recorded as what they are, not as "Edited the profile".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildServer } from '../../src/server/http.ts';
import { createUser, setUserStatus } from '../../src/auth/users.ts';
import { createTestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';

test('disabling and enabling a user have their own messages, in both languages', async () => {
  const t = await createTestApp({ name: 'sqlite' });
  const server = await buildServer(t.app);
  try {
    const admin = await userWithRole(t.app, 'administrator');
    const alice = await createUser(t.app, { login: 'alice', email: 'alice@example.test', role: 'editor' });
    const origin = { user: null, ip: '', initiator: 'cms_cli' as const };
    await setUserStatus(t.app, alice.id, 'disabled', origin);
    await setUserStatus(t.app, alice.id, 'active', origin);
    const events = async (lang: string) =>
      (
        (
          await server.inject({
            method: 'GET',
            url: `/${lang}/cms-json/history/v1/events?per_page=10&ungrouped=1`,
            headers: { authorization: admin.authorization },
          })
        ).json() as { message: string; message_key: string }[]
      ).filter(
        (e) =>
          e.message_key === 'user_enabled' ||
          e.message_key === 'user_disabled' ||
          e.message_key === 'user_updated_profile',
      );
    const en = await events('en');
    assert.deepEqual(
      en.map((e) => [e.message_key, e.message]),
      [
        ['user_enabled', 'Enabled user "alice" (alice@example.test)'],
        ['user_disabled', 'Disabled user "alice" (alice@example.test)'],
      ],
    );
    assert.deepEqual(
      (await events('de')).map((e) => e.message),
      ['Benutzer „alice“ (alice@example.test) aktiviert', 'Benutzer „alice“ (alice@example.test) deaktiviert'],
    );
  } finally {
    await server.close();
    await t.close();
  }
});
