// Demo content and the first start of a new site.
import type { AppServices } from '../site/services.ts';
import { chunkPassword, createAppPassword, listAppPasswords, revokeAppPassword } from '../auth/app-passwords.ts';
import { ROLES, type Role } from '../auth/roles.ts';
import { createPasswordResetLink } from '../auth/password-reset.ts';
import { createUser } from '../auth/users.ts';
import { findUserByLogin } from '../auth/user-rows.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import { DEFAULT_OPTIONS } from '../site/options.ts';
import { utcToZone } from '../site/time.ts';
import { MODULES } from '../modules.ts';

const DEMO_NAMES: Record<Role, string> = {
  administrator: 'Ada Admin',
  editor: 'Emil Editor',
  author: 'Anna Author',
  contributor: 'Carl Contributor',
  subscriber: 'Sina Subscriber',
  translator: 'Tom Translator',
};

/** Events written by the server itself (first start) rather than by a person. */
const SYSTEM_ORIGIN: ActivityOrigin = { user: null, ip: '', initiator: 'cms' };

/**
 * One demo user per role (`demo-<role>`, no password: give them application passwords with
 * the CLI), then every namespace's demo content. Users that already exist are kept.
 */
export async function seedDemo(app: AppServices, origin: ActivityOrigin = SYSTEM_ORIGIN): Promise<void> {
  for (const role of ROLES) {
    const login = `demo-${role}`;
    if (await findUserByLogin(app, login)) continue;
    await createUser(app, { login, email: `${login}@example.com`, role, displayName: DEMO_NAMES[role] }, origin);
  }
  for (const { seed } of MODULES) if (seed) await seed(app, origin);
}

export const FIRST_ADMIN_LOGIN = 'admin';
const FIRST_PASSWORD_NAME = 'First start';

/**
 * The site option that records the first start: `started` once it has written anything,
 * `completed` once every step is done.
 */
export const FIRST_START_OPTION = 'first_start';

async function firstStartState(app: AppServices): Promise<string | undefined> {
  // Read from the database: another process may have completed it while this one waited.
  const row = await app.db
    .selectFrom('options')
    .select('value')
    .where('name', '=', FIRST_START_OPTION)
    .executeTakeFirst();
  return row ? (JSON.parse(row.value) as string) : undefined;
}

/**
 * The first start of a new site: stores the default site options, seeds the demo content,
 * creates the administrator `admin` with an application password and prints how to use it.
 * All or nothing: it is recorded as `started` before its first write and as `completed` after
 * its last, and every step may run again, so a start interrupted anywhere (a crash, a full
 * disk) is completed by the next one; the password is then made and printed anew (one never
 * shown is revoked). Later starts do nothing, as on a site with users but no record (made
 * before the record existed). Returns whether this start completed the first start.
 *
 * On PostgreSQL an advisory lock makes concurrently starting processes wait for the one
 * doing the first start, so only one seeds.
 */
export async function firstStart(app: AppServices, stdout: NodeJS.WritableStream): Promise<boolean> {
  const lockClient = app.dbHandle.pgPool ? await app.dbHandle.pgPool.connect() : null;
  try {
    if (lockClient) await lockClient.query("SELECT pg_advisory_lock(hashtext('content-site first start'))");
    const state = await firstStartState(app);
    if (state === 'completed') return false;
    if (state === undefined && (await app.db.selectFrom('users').select('id').limit(1).executeTakeFirst())) {
      await app.options.set(FIRST_START_OPTION, 'completed');
      return false;
    }
    await app.options.set(FIRST_START_OPTION, 'started');
    const unstored = Object.entries(DEFAULT_OPTIONS).filter(([name]) => !app.options.isStored(name));
    if (unstored.length) await app.options.setMany(Object.fromEntries(unstored));
    await seedDemo(app, SYSTEM_ORIGIN);
    const admin =
      (await findUserByLogin(app, FIRST_ADMIN_LOGIN)) ??
      (await createUser(
        app,
        { login: FIRST_ADMIN_LOGIN, email: 'admin@example.com', role: 'administrator', displayName: 'Administrator' },
        SYSTEM_ORIGIN,
      ));
    // A password of an interrupted first start may never have been shown: replaced.
    for (const earlier of await listAppPasswords(app, admin.id)) {
      if (earlier.name === FIRST_PASSWORD_NAME) await revokeAppPassword(app, admin.id, earlier.uuid, SYSTEM_ORIGIN);
    }
    const created = await createAppPassword(app, admin.id, { name: FIRST_PASSWORD_NAME }, SYSTEM_ORIGIN);
    const password = chunkPassword(created.password);
    // The web pages need a login password, which admin chooses with a one-time link.
    const link = await createPasswordResetLink(app, admin, undefined, SYSTEM_ORIGIN);
    const zone = app.options.timeZone();
    await new Promise<void>((resolve, reject) =>
      stdout.write(
        [
          '',
          'First start: created the site options, the demo content and the administrator "admin".',
          `Application password for admin (shown only this once): ${password}`,
          'Try it:',
          `  curl -u 'admin:${password}' ${app.config.siteUrl}/en/cms-json/history/v1/events`,
          "To log in to the web pages, choose admin's password with this one-time link:",
          `  ${link.url}`,
          `  (works once, until ${utcToZone(link.expiresAt, zone)} ${zone}; or: npx content-site user set-password admin)`,
          'More passwords and users: npx content-site app-password create <login> <app-name>, npx content-site help user',
          '',
          '',
        ].join('\n'),
        (err) => (err ? reject(err) : resolve()),
      ),
    );
    await app.options.set(FIRST_START_OPTION, 'completed');
    return true;
  } finally {
    if (lockClient) {
      await lockClient.query("SELECT pg_advisory_unlock(hashtext('content-site first start'))").catch(() => {});
      lockClient.release();
    }
  }
}
