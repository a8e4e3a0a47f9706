// The users table as the rest of the code reads it: the row, the look-ups (logins and e-mail
// addresses regardless of case) and the AuthUser a row stands for. Writes are in users.ts.
import type { Selectable } from 'kysely';
import type { AppServices } from '../site/services.ts';
import type { UsersTable } from '../db/schema.ts';
import { ROLE_CAPABILITIES, isRole } from './roles.ts';
import type { AuthUser } from './types.ts';

export type UserRow = Selectable<UsersTable>;

export async function findUserById(app: AppServices, id: number): Promise<UserRow | undefined> {
  return app.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function findUserByLogin(app: AppServices, login: string): Promise<UserRow | undefined> {
  return app.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['login']), '=', login.toLowerCase()))
    .executeTakeFirst();
}

export async function findUserByEmail(app: AppServices, email: string): Promise<UserRow | undefined> {
  return app.db
    .selectFrom('users')
    .selectAll()
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
}

export async function listUsers(app: AppServices): Promise<UserRow[]> {
  return app.db.selectFrom('users').selectAll().orderBy('id').execute();
}

export function toAuthUser(row: Omit<UserRow, 'locale'>): AuthUser {
  // Roles are validated on every write; a row with a role this code no longer knows gets
  // the least privileges rather than failing every request.
  const role = isRole(row.role) ? row.role : 'subscriber';
  const caps = ROLE_CAPABILITIES[role];
  return {
    id: row.id,
    login: row.login,
    email: row.email,
    displayName: row.display_name,
    role,
    can: (cap: string) => caps.has(cap),
  };
}
