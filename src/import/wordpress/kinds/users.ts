// Users with their roles, password hashes and application passwords. WordPress's hashes are
// stored as they are and verified in their own formats (src/auth/wordpress-hashes.ts); a
// sign-in on the web replaces a login hash by ours.
//
// Roles: WordPress's built-in roles are ours too. Any other role maps to the highest of our
// roles whose every capability the WordPress role grants (as the site's `<prefix>user_roles`
// option defines it), else to subscriber; users with several roles get the highest mapped one.
import type { Selectable } from 'kysely';
import type { AppPasswordsTable } from '../../../db/schema.ts';
import { ROLE_CAPABILITIES, isRole, type Role } from '../../../auth/roles.ts';
import { credentialCache } from '../../../auth/credential-cache.ts';
import { syncIdSequence, unixToUtc, mysqlDate, type ImportContext, type ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { phpList, phpValue } from '../source/php.ts';
import { fingerprint } from '../state.ts';

const BATCH = 500;
const LOGIN_PATTERN = /^[A-Za-z0-9_.@-]+$/;
/** Our roles from the most privileged down. */
const ROLE_ORDER: Role[] = ['administrator', 'editor', 'author', 'contributor', 'translator', 'subscriber'];

interface WpUser {
  ID: number;
  user_login: string;
  user_pass: string;
  user_email: string;
  user_registered: string;
  display_name: string;
}

interface WpAppPassword {
  uuid?: unknown;
  app_id?: unknown;
  name?: unknown;
  password?: unknown;
  created?: unknown;
  last_used?: unknown;
  last_ip?: unknown;
}

/** Maps a user's WordPress roles onto ours; `unknown` lists the roles that had to be mapped by the rule. */
export function mapRoles(wpRoles: string[], definitions: Map<string, Set<string>>): { role: Role; unknown: string[] } {
  const unknown: string[] = [];
  const mapped: Role[] = [];
  for (const name of wpRoles) {
    if (isRole(name)) {
      mapped.push(name);
      continue;
    }
    unknown.push(name);
    const caps = definitions.get(name) ?? new Set<string>();
    mapped.push(ROLE_ORDER.find((r) => [...ROLE_CAPABILITIES[r]].every((c) => caps.has(c))) ?? 'subscriber');
  }
  const role = ROLE_ORDER.find((r) => mapped.includes(r)) ?? 'subscriber';
  return { role, unknown };
}

/** The site's role definitions (`<prefix>user_roles`): role → granted capabilities. */
async function roleDefinitions(ctx: ImportContext): Promise<Map<string, Set<string>>> {
  const value = await ctx.wp.optionValue(`${ctx.wp.prefix}user_roles`);
  const out = new Map<string, Set<string>>();
  if (value && typeof value === 'object') {
    for (const [name, def] of Object.entries(value as Record<string, { capabilities?: Record<string, unknown> }>)) {
      const caps = def?.capabilities ?? {};
      out.set(
        name,
        new Set(
          Object.entries(caps)
            .filter(([, on]) => on === true || on === 1 || on === '1')
            .map(([c]) => c),
        ),
      );
    }
  }
  return out;
}

/** The roles in a user's `<prefix>capabilities` (which also holds single capabilities granted to the user, e.g. WPML's). */
function rolesOf(capabilities: unknown, definitions: Map<string, Set<string>>): string[] {
  if (!capabilities || typeof capabilities !== 'object') return [];
  return Object.entries(capabilities as Record<string, unknown>)
    .filter(([name, on]) => (on === true || on === 1 || on === '1') && (definitions.has(name) || isRole(name)))
    .map(([name]) => name);
}

/** A login we accept: WordPress allows spaces and a few more characters. */
function ourLogin(login: string): string {
  return LOGIN_PATTERN.test(login) ? login : login.replace(/[^A-Za-z0-9_.@-]+/g, '-').replace(/^-+|-+$/g, '') || 'user';
}

export const usersKind: ImportKind = {
  name: 'users',
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    report.available = await wp.count('users');
    const stage = ctx.progress.stage('users', report.available);
    const definitions = await roleDefinitions(ctx);
    const known = await state.mappings('users');
    const knownPasswords = await state.mappings('app_passwords');
    const capKey = `${wp.prefix}capabilities`;
    const appPasswords = { imported: 0, updated: 0, revoked: 0 };
    let done = 0;
    for await (const users of wp.batches<WpUser & Record<string, unknown>>(
      `SELECT ID, user_login, user_pass, user_email, user_registered, display_name FROM ${wp.table('users')}`,
      'ID',
      0,
      BATCH,
    )) {
      const meta = await wp.db.query<{ user_id: number; meta_key: string; meta_value: string }>(
        `SELECT user_id, meta_key, meta_value FROM ${wp.table('usermeta')} WHERE user_id IN (?) AND meta_key IN (?, '_application_passwords') ORDER BY umeta_id`,
        [users.map((u) => u.ID), capKey],
      );
      const metaOf = (id: number, key: string) =>
        meta.filter((m) => Number(m.user_id) === id && m.meta_key === key).pop()?.meta_value ?? null;
      for (const u of users) {
        const id = Number(u.ID);
        const { role, unknown } = mapRoles(rolesOf(phpValue(metaOf(id, capKey)), definitions), definitions);
        for (const name of unknown)
          report.note(`role "${name}" is not one of ours: mapped to ${role} by its capabilities`);
        const targetId = await importUser(ctx, report, u, role, known.get(String(id)));
        if (targetId !== null) {
          const entries = phpList(phpValue(metaOf(id, '_application_passwords'))) as WpAppPassword[];
          await importAppPasswords(ctx, report, targetId, entries, knownPasswords, appPasswords);
        }
        stage.update(++done);
      }
    }
    if (!ctx.dryRun) await syncIdSequence(app, 'users');
    const verb = ctx.dryRun ? 'would be ' : '';
    report.note(
      `application passwords: ${appPasswords.imported} ${verb}imported, ${appPasswords.updated} ${verb}updated, ${appPasswords.revoked} ${verb}revoked (no longer at the source)`,
    );
    stage.finish(
      `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedTotal} skipped`,
    );
  },
};

/** Imports or updates one user; returns our id (null when skipped). */
async function importUser(
  ctx: ImportContext,
  report: KindReport,
  u: WpUser,
  role: Role,
  known: { targetId: string; checksum: string } | undefined,
): Promise<number | null> {
  const { app, state } = ctx;
  const sourceId = Number(u.ID);
  const login = ourLogin(String(u.user_login));
  if (login !== u.user_login) report.note(`login "${u.user_login}" is not allowed here: imported as "${login}"`);
  const email = String(u.user_email || `${login}@invalid.invalid`);
  const fields = {
    login,
    email,
    display_name: String(u.display_name || login),
    role,
    created_at: mysqlDate(u.user_registered) ?? '1970-01-01 00:00:00',
  };
  const passHash = String(u.user_pass ?? '');
  const checksum = `${fingerprint(fields)}:${fingerprint(passHash)}`;

  if (known) {
    const target = await app.db
      .selectFrom('users')
      .select(['id', 'password_hash'])
      .where('id', '=', Number(known.targetId))
      .executeTakeFirst();
    if (!target) {
      report.skip('deleted on this site after an earlier import (not brought back)');
      return null;
    }
    if (known.checksum === checksum) {
      report.unchanged++;
      return target.id;
    }
    const [rowPart, passPart] = known.checksum.split(':');
    const set: Record<string, unknown> = {};
    if (rowPart !== fingerprint(fields))
      Object.assign(set, { email: fields.email, display_name: fields.display_name, role: fields.role });
    // A new password at the source wins; otherwise ours stays (it may have been upgraded at sign-in).
    if (passPart !== fingerprint(passHash)) set.password_hash = passHash || null;
    report.updated++;
    if (!ctx.dryRun) {
      await app.db.transaction().execute(async (tx) => {
        if (Object.keys(set).length) await tx.updateTable('users').set(set).where('id', '=', target.id).execute();
        await state.map(tx, 'users', sourceId, target.id, checksum);
      });
      credentialCache(app).forgetUser(target.id);
    }
    return target.id;
  }

  // New here: is the login or e-mail address taken by a user that is not this one's import?
  const clash = await app.db
    .selectFrom('users')
    .select(['id', 'login', 'email'])
    .where((eb) =>
      eb.or([
        eb(eb.fn('lower', ['login']), '=', login.toLowerCase()),
        eb(eb.fn('lower', ['email']), '=', email.toLowerCase()),
      ]),
    )
    .execute();
  let values = { ...fields };
  if (clash.length) {
    const what = clash.some((c) => c.login.toLowerCase() === login.toLowerCase())
      ? `login "${login}"`
      : `e-mail address ${email}`;
    if (ctx.onConflict === 'skip') {
      report.conflict(
        `user ${sourceId} (${u.user_login}): the ${what} is taken here — skipped (--on-conflict rename or overwrite to import it)`,
      );
      report.skip('login or e-mail address taken here (--on-conflict skip)');
      return null;
    }
    if (ctx.onConflict === 'overwrite' && clash.length > 1) {
      report.conflict(
        `user ${sourceId} (${u.user_login}): its login and e-mail address belong to two different users here — skipped`,
      );
      report.skip('login and e-mail address taken by two different users here');
      return null;
    }
    if (ctx.onConflict === 'overwrite') {
      const target = clash[0]!;
      report.conflict(
        `user ${sourceId} (${u.user_login}): the ${what} is taken here — user ${target.id} overwritten with the WordPress user`,
      );
      report.updated++;
      if (!ctx.dryRun) {
        await app.db.transaction().execute(async (tx) => {
          await tx
            .updateTable('users')
            .set({ ...fields, password_hash: passHash || null })
            .where('id', '=', target.id)
            .execute();
          await state.map(tx, 'users', sourceId, target.id, checksum);
        });
        credentialCache(app).forgetUser(target.id);
      }
      return target.id;
    }
    values = { ...fields, ...(await freeLoginAndEmail(ctx, login, email)) };
    report.conflict(
      `user ${sourceId} (${u.user_login}): the ${what} is taken here — imported as "${values.login}" <${values.email}>`,
    );
  }
  report.imported++;
  if (ctx.dryRun) return null;
  const idFree = !(await app.db.selectFrom('users').select('id').where('id', '=', sourceId).executeTakeFirst());
  const row = await app.db.transaction().execute(async (tx) => {
    const inserted = await tx
      .insertInto('users')
      .values({ ...(idFree ? { id: sourceId } : {}), ...values, password_hash: passHash || null, status: 'active' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await state.map(tx, 'users', sourceId, inserted.id, checksum);
    return inserted;
  });
  if (idFree) await syncIdSequence(app, 'users');
  return row.id;
}

/** A login and e-mail address not used here, for --on-conflict rename (`login-wp`, `login-wp2`…). */
async function freeLoginAndEmail(
  ctx: ImportContext,
  login: string,
  email: string,
): Promise<{ login: string; email: string }> {
  const taken = async (column: 'login' | 'email', value: string) =>
    Boolean(
      await ctx.app.db
        .selectFrom('users')
        .select('id')
        .where((eb) => eb(eb.fn('lower', [column]), '=', value.toLowerCase()))
        .executeTakeFirst(),
    );
  let newLogin = login;
  for (let n = 1; await taken('login', newLogin); n++) newLogin = `${login}-wp${n > 1 ? n : ''}`;
  let newEmail = email;
  const [local, domain] = email.includes('@')
    ? [email.slice(0, email.lastIndexOf('@')), email.slice(email.lastIndexOf('@') + 1)]
    : [email, 'invalid.invalid'];
  for (let n = 1; await taken('email', newEmail); n++) newEmail = `${local}+wp${n > 1 ? n : ''}@${domain}`;
  return { login: newLogin, email: newEmail };
}

async function importAppPasswords(
  ctx: ImportContext,
  report: KindReport,
  userId: number,
  entries: WpAppPassword[],
  known: Map<string, { targetId: string; checksum: string }>,
  counts: { imported: number; updated: number; revoked: number },
): Promise<void> {
  const { app, state } = ctx;
  const present = new Set<string>();
  for (const e of entries) {
    const uuid = String(e.uuid ?? '');
    const hash = String(e.password ?? '');
    if (!/^[0-9a-f-]{36}$/i.test(uuid) || !hash) {
      report.skip('application password entry without uuid or hash');
      continue;
    }
    present.add(uuid);
    const row: Selectable<AppPasswordsTable> = {
      uuid,
      user_id: userId,
      app_id: String(e.app_id ?? ''),
      name: String(e.name ?? '') || 'WordPress application',
      password_hash: hash,
      created_at: unixToUtc(e.created) ?? '1970-01-01 00:00:00',
      last_used: unixToUtc(e.last_used),
      last_ip: e.last_ip ? String(e.last_ip) : null,
    };
    const checksum = fingerprint(row);
    const previous = known.get(uuid);
    if (previous?.checksum === checksum) continue;
    if (previous) counts.updated++;
    else counts.imported++;
    if (ctx.dryRun) continue;
    await app.db.transaction().execute(async (tx) => {
      const { uuid: _key, ...changes } = row;
      await tx
        .insertInto('app_passwords')
        .values(row)
        .onConflict((oc) => oc.column('uuid').doUpdateSet(changes))
        .execute();
      await state.map(tx, 'app_passwords', uuid, uuid, checksum);
    });
  }
  // Revoked at the source since an earlier run: revoked here too.
  const gone = [...known].filter(([uuid, m]) => !present.has(uuid) && m.targetId === uuid).map(([uuid]) => uuid);
  const mine = gone.length
    ? await app.db
        .selectFrom('app_passwords')
        .select('uuid')
        .where('user_id', '=', userId)
        .where('uuid', 'in', gone)
        .execute()
    : [];
  for (const { uuid } of mine) {
    counts.revoked++;
    if (ctx.dryRun) continue;
    await app.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('app_passwords').where('uuid', '=', uuid).execute();
      await state.unmap(tx, 'app_passwords', uuid);
    });
    credentialCache(app).forgetAppPassword(uuid);
  }
}
