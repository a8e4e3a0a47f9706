// Demo content and the first start of a new site.
import type { AppServices } from '../app.ts';
import { chunkPassword, createAppPassword } from '../auth/app-passwords.ts';
import { ROLES, type Role } from '../auth/roles.ts';
import { createUser, findUserByLogin } from '../auth/users.ts';
import type { ActivityOrigin } from '../site/activity.ts';
import { DEFAULT_OPTIONS } from '../site/options.ts';
import { seedDemo as seedSched } from '../namespaces/sched/seed.ts';
import { seedDemo as seedI18nSt } from '../namespaces/i18n-st/seed.ts';
import { seedDemo as seedI18nTm } from '../namespaces/i18n-tm/seed.ts';
import { seedDemo as seedSliderx } from '../namespaces/sliderx/seed.ts';
import { seedDemo as seedPages } from '../pages/seed.ts';
import { seedDemo as seedHistory } from '../namespaces/history/seed.ts';

/**
 * Demo content of each part of the site that has some (src/namespaces/<ns>/seed.ts,
 * src/pages/seed.ts), run after the demo users exist. Each is safe to run again.
 */
const SEEDERS: ((app: AppServices, origin: ActivityOrigin) => Promise<unknown>)[] = [seedPages, seedSched, seedSliderx, seedI18nSt, seedI18nTm, seedHistory];

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
  for (const seed of SEEDERS) await seed(app, origin);
}

export const FIRST_ADMIN_LOGIN = 'admin';

/**
 * On a site without users: stores the default site options, seeds the demo content, creates
 * the administrator `admin` with an application password and prints how to use it. Later
 * starts do nothing. Returns whether this was the first start.
 *
 * On PostgreSQL an advisory lock makes concurrently starting processes wait for the one
 * doing the first start, so only one seeds.
 */
export async function firstStart(app: AppServices, stdout: NodeJS.WritableStream): Promise<boolean> {
  const lockClient = app.dbHandle.pgPool ? await app.dbHandle.pgPool.connect() : null;
  try {
    if (lockClient) await lockClient.query("SELECT pg_advisory_lock(hashtext('content-site first start'))");
    const anyUser = await app.db.selectFrom('users').select('id').limit(1).executeTakeFirst();
    if (anyUser) return false;
    await app.options.setMany({ ...DEFAULT_OPTIONS });
    await seedDemo(app, SYSTEM_ORIGIN);
    const admin = await createUser(app, { login: FIRST_ADMIN_LOGIN, email: 'admin@example.com', role: 'administrator', displayName: 'Administrator' }, SYSTEM_ORIGIN);
    const created = await createAppPassword(app, admin.id, { name: 'First start' }, SYSTEM_ORIGIN);
    const password = chunkPassword(created.password);
    stdout.write(
      [
        '',
        'First start: created the site options, the demo content and the administrator "admin".',
        `Application password for admin (shown only this once): ${password}`,
        'Try it:',
        `  curl -u 'admin:${password}' ${app.config.siteUrl}/en/cms-json/history/v1/events`,
        'More passwords and users: content-site app-password create <login> <app-name>, content-site user create --help',
        '',
        '',
      ].join('\n'),
    );
    return true;
  } finally {
    if (lockClient) {
      await lockClient.query("SELECT pg_advisory_unlock(hashtext('content-site first start'))").catch(() => {});
      lockClient.release();
    }
  }
}
