// Site users: creation with validation, role and status changes, profile and password changes,
// deletion. Every write ends the user's cached credentials in every process (credential-cache.ts)
// and, when an origin is given, is recorded in the activity log. The fields' rules are in
// user-fields.ts, reads in user-rows.ts, the login password's rule and check in login-password.ts.
import type { Transaction } from 'kysely';
import type { AppServices } from '../site/services.ts';
import type { Database } from '../db/schema.ts';
import { RestError } from '../rest/types.ts';
import { loggerEntry, type ActivityOrigin } from '../site/activity.ts';
import { utcNow } from '../site/time.ts';
import { credentialCache, markCredentialsChanged } from './credential-cache.ts';
import { userLogger } from './logger.ts';
import { hashPassword } from './passwords.ts';
import {
  assertDisplayName,
  assertEmail,
  assertLocale,
  assertLogin,
  assertUserStatus,
  validatePassword,
  validateRole,
  type UserStatus,
} from './user-fields.ts';
import type { UserRow } from './user-rows.ts';

export interface NewUser {
  login: string;
  email: string;
  role: string;
  displayName?: string;
  /** Interactive-login password (authorize-application page); none → app passwords only. */
  password?: string;
}

function unknownUser(): RestError {
  return new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
}

export async function createUser(app: AppServices, input: NewUser, origin?: ActivityOrigin): Promise<UserRow> {
  const login = input.login.trim();
  const email = input.email.trim();
  assertLogin(login);
  assertEmail(email);
  const role = validateRole(input.role);
  const displayName = input.displayName?.trim() || login; // never empty: the login is not
  assertDisplayName(displayName);
  const passwordHash = input.password ? await hashPassword(input.password) : null;

  const row = await app.db.transaction().execute(async (tx) => {
    await assertUnique(tx, login, email);
    try {
      return await tx
        .insertInto('users')
        .values({
          login,
          email,
          display_name: displayName,
          role,
          password_hash: passwordHash,
          status: 'active',
          created_at: utcNow(),
        })
        .returningAll()
        .executeTakeFirstOrThrow();
    } catch (err) {
      // A concurrent creation won the race between our check and the insert.
      if (isUniqueViolation(err))
        throw duplicate(login, email, await tx.selectFrom('users').select(['login', 'email']).execute());
      throw err;
    }
  });
  if (origin) {
    await app.activity.log(
      loggerEntry(userLogger, 'user_created', {
        created_user_id: row.id,
        created_user_login: row.login,
        created_user_email: row.email,
        created_user_role: row.role,
      }),
      origin,
    );
  }
  return row;
}

// Logins and e-mail addresses are unique regardless of case (as on the reference's MySQL);
// migration 0002_auth backs this with unique indexes on lower(login) / lower(email).
async function assertUnique(tx: Transaction<Database>, login: string, email: string): Promise<void> {
  const clashes = await tx
    .selectFrom('users')
    .select(['login', 'email'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['login']), '=', login.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      ]),
    )
    .execute();
  if (clashes.length) throw duplicate(login, email, clashes);
}

function duplicate(login: string, email: string, rows: { login: string; email: string }[]): RestError {
  if (rows.some((r) => r.login.toLowerCase() === login.toLowerCase())) {
    return new RestError('existing_user_login', `The login "${login}" is already taken.`, 400);
  }
  return new RestError('existing_user_email', `The e-mail address "${email}" is already used by another user.`, 400);
}

function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}

export async function setUserRole(
  app: AppServices,
  userId: number,
  role: string,
  origin?: ActivityOrigin,
): Promise<UserRow> {
  const newRole = validateRole(role);
  const { before, after } = await updateUser(app, userId, { role: newRole });
  if (origin && before.role !== after.role) {
    await app.activity.log(
      loggerEntry(userLogger, 'user_role_updated', {
        edited_user_id: after.id,
        edited_user_login: after.login,
        new_role: after.role,
        old_role: before.role,
      }),
      origin,
    );
  }
  return after;
}

export async function setUserStatus(
  app: AppServices,
  userId: number,
  status: UserStatus,
  origin?: ActivityOrigin,
): Promise<UserRow> {
  assertUserStatus(status);
  const { before, after } = await updateUser(app, userId, { status });
  if (origin && before.status !== after.status) {
    await app.activity.log(
      // Their own messages, not "Edited the profile": disabling someone is not a profile edit.
      loggerEntry(userLogger, after.status === 'disabled' ? 'user_disabled' : 'user_enabled', {
        edited_user_id: after.id,
        edited_user_login: after.login,
        edited_user_email: after.email,
        user_prev_status: before.status,
        user_new_status: after.status,
      }),
      origin,
    );
  }
  return after;
}

type UserChanges = Partial<Pick<UserRow, 'role' | 'status' | 'display_name' | 'email' | 'locale' | 'password_hash'>>;

async function updateUser(
  app: AppServices,
  userId: number,
  changes: UserChanges,
): Promise<{ before: UserRow; after: UserRow }> {
  let result: { before: UserRow; after: UserRow };
  try {
    result = await app.db.transaction().execute(async (tx) => {
      const before = await tx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
      if (!before) throw unknownUser();
      if (changes.email !== undefined) {
        const email = changes.email.toLowerCase();
        const clash = await tx
          .selectFrom('users')
          .select('id')
          .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
          .where('id', '!=', userId)
          .executeTakeFirst();
        if (clash) throw duplicate('', changes.email, []);
      }
      const after = await tx
        .updateTable('users')
        .set(changes)
        .where('id', '=', userId)
        .returningAll()
        .executeTakeFirstOrThrow();
      await markCredentialsChanged(tx);
      return { before, after };
    });
  } catch (err) {
    // A concurrent change took the e-mail address between the check and the update.
    if (changes.email !== undefined && isUniqueViolation(err)) throw duplicate('', changes.email, []);
    throw err;
  }
  credentialCache(app).forgetUser(userId);
  return result;
}

export interface ProfileChanges {
  displayName?: string;
  email?: string;
  /** 'en', 'de', or '' for none (the browser's language). */
  locale?: string;
}

/** Changes a user's display name, e-mail address or language; a change is logged as a profile edit. */
export async function updateUserProfile(
  app: AppServices,
  userId: number,
  input: ProfileChanges,
  origin?: ActivityOrigin,
): Promise<UserRow> {
  const changes: UserChanges = {};
  if (input.displayName !== undefined) {
    const name = input.displayName.trim();
    assertDisplayName(name);
    changes.display_name = name;
  }
  if (input.email !== undefined) {
    const email = input.email.trim();
    assertEmail(email);
    changes.email = email;
  }
  if (input.locale !== undefined) {
    assertLocale(input.locale);
    changes.locale = input.locale;
  }
  const { before, after } = await updateUser(app, userId, changes);
  const changed: Record<string, string> = {};
  for (const [column, field] of [
    ['display_name', 'display_name'],
    ['email', 'user_email'],
    ['locale', 'locale'],
  ] as const) {
    if (before[column] !== after[column])
      Object.assign(changed, { [`user_prev_${field}`]: before[column], [`user_new_${field}`]: after[column] });
  }
  if (origin && Object.keys(changed).length) await logProfileEdit(app, after, changed, origin);
  return after;
}

/** Sets a user's login password (at least 8 characters); logged as a profile edit. */
export async function setUserPassword(
  app: AppServices,
  userId: number,
  password: string,
  origin?: ActivityOrigin,
): Promise<UserRow> {
  validatePassword(password);
  const { after } = await updateUser(app, userId, { password_hash: await hashPassword(password) });
  if (origin) await logProfileEdit(app, after, { user_password_changed: '1' }, origin);
  return after;
}

async function logProfileEdit(
  app: AppServices,
  user: UserRow,
  details: Record<string, string>,
  origin: ActivityOrigin,
): Promise<void> {
  await app.activity.log(
    loggerEntry(userLogger, 'user_updated_profile', {
      edited_user_id: user.id,
      edited_user_login: user.login,
      edited_user_email: user.email,
      ...details,
    }),
    origin,
  );
}

/** Deletes the user and their application passwords; returns the deleted row. */
export async function deleteUser(app: AppServices, userId: number, origin?: ActivityOrigin): Promise<UserRow> {
  const row = await app.db.transaction().execute(async (tx) => {
    const existing = await tx.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
    if (!existing) throw unknownUser();
    await tx.deleteFrom('app_passwords').where('user_id', '=', userId).execute();
    await tx.deleteFrom('users').where('id', '=', userId).execute();
    await markCredentialsChanged(tx);
    return existing;
  });
  credentialCache(app).forgetUser(userId);
  if (origin) {
    await app.activity.log(
      loggerEntry(userLogger, 'user_deleted', {
        deleted_user_id: row.id,
        deleted_user_login: row.login,
        deleted_user_email: row.email,
      }),
      origin,
    );
  }
  return row;
}
