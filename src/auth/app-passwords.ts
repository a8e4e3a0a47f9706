// Application passwords (reference rest-core §6.1): 24 random alphanumeric characters,
// shown in groups of four, stored only as a salted keyed hash.
//
// Why a fast keyed hash and not scrypt: the secret is 24 characters drawn uniformly from
// 62, i.e. log2(62^24) ≈ 143 bits of entropy. Guessing it is hopeless at any hash speed, so
// a slow KDF would buy no security, only cost ~50 ms of CPU on every authenticated request
// (and hand attackers a cheap way to burn CPU). HMAC-SHA256 keyed with a per-row random salt
// keeps stored rows useless to an attacker who reads the table (no precomputation, no
// equal hashes for equal passwords) and is verified in constant time.
import crypto from 'node:crypto';
import type { Selectable } from 'kysely';
import type { AppServices } from '../site/services.ts';
import type { AppPasswordsTable } from '../db/schema.ts';
import { RestError } from '../rest/types.ts';
import { loggerEntry, type ActivityOrigin } from '../site/activity.ts';
import { formatUtc, utcNow } from '../site/time.ts';
import { credentialCache, markCredentialsChanged } from './credential-cache.ts';
import { userLogger } from './logger.ts';
import { verifyWordPressAppPassword } from './wordpress-hashes.ts';
import { findUserById, type UserRow } from './user-rows.ts';

export type AppPasswordRow = Selectable<AppPasswordsTable>;

/** An application password as the reference's REST item shows it (dates GMT, no zone). */
export interface AppPasswordItem {
  uuid: string;
  app_id: string;
  name: string;
  created: string;
  last_used: string | null;
  last_ip: string | null;
}

/** A freshly created password: the only moment the secret exists in clear. */
export interface NewAppPassword extends AppPasswordItem {
  /** The raw 24-character password; show it with chunkPassword(). */
  password: string;
}

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const PASSWORD_LENGTH = 24;
const NAME_MAX = 250;
const USAGE_INTERVAL_MS = 24 * 3600 * 1000;
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function generatePassword(): string {
  let out = '';
  for (let i = 0; i < PASSWORD_LENGTH; i++) out += ALPHABET[crypto.randomInt(ALPHABET.length)];
  return out;
}

/** Only ASCII letters and digits count; everything else (spaces of the chunked form…) is dropped. */
export function normalizePassword(password: string): string {
  return password.replace(/[^A-Za-z0-9]/g, '');
}

/** The display form: `abcd efgh ijkl mnop qrst uvwx`. */
export function chunkPassword(password: string): string {
  return (normalizePassword(password).match(/.{1,4}/g) ?? []).join(' ');
}

export function hashAppPassword(password: string): string {
  const salt = crypto.randomBytes(16);
  return `$hmac-sha256$${salt.toString('base64url')}$${digest(salt, password).toString('base64url')}`;
}

/** Checks a password against a stored hash: ours, or one imported from WordPress (wordpress-hashes.ts). */
export function verifyAppPassword(password: string, stored: string): boolean {
  const m = /^\$hmac-sha256\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return verifyWordPressAppPassword(normalizePassword(password), stored);
  const expected = Buffer.from(m[2]!, 'base64url');
  const actual = digest(Buffer.from(m[1]!, 'base64url'), normalizePassword(password));
  return actual.length === expected.length && crypto.timingSafeEqual(actual, expected);
}

function digest(salt: Buffer, password: string): Buffer {
  return crypto.createHmac('sha256', salt).update(password, 'utf8').digest();
}

function toItem(row: AppPasswordRow): AppPasswordItem {
  const iso = (d: string | null) => (d === null ? null : d.replace(' ', 'T'));
  return {
    uuid: row.uuid,
    app_id: row.app_id,
    name: row.name,
    created: iso(row.created_at)!,
    last_used: iso(row.last_used),
    last_ip: row.last_ip,
  };
}

/** The reference's sanitize_text_field, as far as names need it: no tags, single spaces. */
function cleanName(name: string): string {
  return name
    .replace(/<[^>]*>/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

async function requireUser(app: AppServices, userId: number): Promise<UserRow> {
  const user = await findUserById(app, userId);
  if (!user) throw new RestError('rest_user_invalid_id', 'Invalid user ID.', 404);
  return user;
}

export async function createAppPassword(
  app: AppServices,
  userId: number,
  input: { name: string; appId?: string },
  origin?: ActivityOrigin,
): Promise<NewAppPassword> {
  const name = cleanName(input.name);
  if (!name)
    throw new RestError(
      'application_password_empty_name',
      'An application name is required to create an application password.',
      400,
    );
  if (name.length > NAME_MAX)
    throw new RestError(
      'application_password_name_too_long',
      `Application names may not be longer than ${NAME_MAX} characters.`,
      400,
    );
  const appId = input.appId ?? '';
  if (appId !== '' && !UUID_PATTERN.test(appId))
    throw new RestError('invalid_app_id', 'The application ID must be a UUID.', 400);
  const user = await requireUser(app, userId);
  const password = generatePassword();
  const row: AppPasswordRow = {
    uuid: crypto.randomUUID(),
    user_id: user.id,
    app_id: appId,
    name,
    password_hash: hashAppPassword(password),
    created_at: utcNow(),
    last_used: null,
    last_ip: null,
  };
  // One statement, so that of two concurrent requests with the same name only one inserts.
  const inserted = await app.db
    .insertInto('app_passwords')
    .columns(['uuid', 'user_id', 'app_id', 'name', 'password_hash', 'created_at', 'last_used', 'last_ip'])
    .expression(
      app.db
        .selectNoFrom((eb) => [
          eb.val(row.uuid).as('uuid'),
          eb.cast<number>(eb.val(row.user_id), 'integer').as('user_id'),
          eb.val(row.app_id).as('app_id'),
          eb.val(row.name).as('name'),
          eb.val(row.password_hash).as('password_hash'),
          eb.val(row.created_at).as('created_at'),
          eb.cast<string | null>(eb.lit(null), 'varchar(19)').as('last_used'),
          eb.cast<string | null>(eb.lit(null), 'varchar(45)').as('last_ip'),
        ])
        .where((eb) =>
          eb.not(
            eb.exists(
              eb.selectFrom('app_passwords').select('uuid').where('user_id', '=', user.id).where('name', '=', name),
            ),
          ),
        ),
    )
    .executeTakeFirst();
  if (Number(inserted.numInsertedOrUpdatedRows ?? 0) === 0) {
    // WordPress's answer (WP_Application_Passwords::create_new_application_password).
    throw new RestError('application_password_duplicate_name', 'Each application name should be unique.', 409);
  }
  if (origin) {
    await app.activity.log(
      loggerEntry(userLogger, 'user_application_password_created', {
        edited_user_id: user.id,
        edited_user_login: user.login,
        application_password_name: name,
      }),
      origin,
    );
  }
  return { ...toItem(row), password };
}

async function rowsOf(app: AppServices, userId: number): Promise<AppPasswordRow[]> {
  return app.db
    .selectFrom('app_passwords')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('uuid')
    .execute();
}

export async function listAppPasswords(app: AppServices, userId: number): Promise<AppPasswordItem[]> {
  await requireUser(app, userId);
  return (await rowsOf(app, userId)).map(toItem);
}

export async function getAppPassword(
  app: AppServices,
  userId: number,
  uuid: string,
): Promise<AppPasswordItem | undefined> {
  const row = await app.db
    .selectFrom('app_passwords')
    .selectAll()
    .where('user_id', '=', userId)
    .where('uuid', '=', uuid)
    .executeTakeFirst();
  return row && toItem(row);
}

function notFound(): RestError {
  return new RestError('rest_application_password_not_found', 'Application password not found.', 404);
}

/** Revokes one password; returns it as it was. */
export async function revokeAppPassword(
  app: AppServices,
  userId: number,
  uuid: string,
  origin?: ActivityOrigin,
): Promise<AppPasswordItem> {
  const user = await requireUser(app, userId);
  const row = await app.db.transaction().execute(async (tx) => {
    const deleted = await tx
      .deleteFrom('app_passwords')
      .where('user_id', '=', userId)
      .where('uuid', '=', uuid)
      .returningAll()
      .executeTakeFirst();
    if (deleted) await markCredentialsChanged(tx);
    return deleted;
  });
  if (!row) throw notFound();
  credentialCache(app).forgetAppPassword(uuid);
  if (origin) await logRevoked(app, user, row, origin);
  return toItem(row);
}

/** Revokes every password of the user; returns how many there were. */
export async function revokeAllAppPasswords(
  app: AppServices,
  userId: number,
  origin?: ActivityOrigin,
): Promise<number> {
  const user = await requireUser(app, userId);
  const rows = await app.db.transaction().execute(async (tx) => {
    const deleted = await tx.deleteFrom('app_passwords').where('user_id', '=', userId).returningAll().execute();
    if (deleted.length) await markCredentialsChanged(tx);
    return deleted;
  });
  credentialCache(app).forgetUser(userId);
  if (origin) for (const row of rows) await logRevoked(app, user, row, origin);
  return rows.length;
}

async function logRevoked(app: AppServices, user: UserRow, row: AppPasswordRow, origin: ActivityOrigin): Promise<void> {
  await app.activity.log(
    loggerEntry(userLogger, 'user_application_password_revoked', {
      edited_user_id: user.id,
      edited_user_login: user.login,
      application_password_name: row.name,
    }),
    origin,
  );
}

/** Checked when there is nothing to check against, so that no failure is cheaper than a wrong password. */
const THROWAWAY_HASH = hashAppPassword(generatePassword());

/**
 * The user's first stored password (in creation order) that matches, as the reference checks.
 * Costs one hash per stored password, and one for a user with none or no user (`undefined`).
 */
export async function matchAppPassword(
  app: AppServices,
  userId: number | undefined,
  password: string,
): Promise<AppPasswordRow | null> {
  const rows = userId === undefined ? [] : await rowsOf(app, userId);
  if (!rows.length) {
    verifyAppPassword(password, THROWAWAY_HASH);
    return null;
  }
  for (const row of rows) {
    if (verifyAppPassword(password, row.password_hash)) return row;
  }
  return null;
}

/**
 * Records `last_used`/`last_ip` after a successful login, at most once per 24 hours per
 * password (reference §6.1). Returns whether it wrote.
 */
export async function recordAppPasswordUse(
  app: AppServices,
  row: AppPasswordRow,
  ip: string,
  now = new Date(),
): Promise<boolean> {
  if (row.last_used !== null && now.getTime() - Date.parse(row.last_used.replace(' ', 'T') + 'Z') < USAGE_INTERVAL_MS)
    return false;
  // Conditional, so that of concurrent first uses (several requests verifying the same new
  // password at once) exactly one writes — and only that one logs the login.
  const cutoff = formatUtc(new Date(now.getTime() - USAGE_INTERVAL_MS));
  const result = await app.db
    .updateTable('app_passwords')
    .set({ last_used: formatUtc(now), last_ip: ip })
    .where('uuid', '=', row.uuid)
    .where((eb) => eb.or([eb('last_used', 'is', null), eb('last_used', '<=', cutoff)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}
