// HTTP test helpers: users with application passwords and their Authorization headers.
import crypto from 'node:crypto';
import type { AppServices } from '../../src/site/services.ts';
import { createAppPassword } from '../../src/auth/app-passwords.ts';
import type { Role } from '../../src/auth/roles.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import { createUser, toAuthUser } from '../../src/auth/users.ts';

/** The `Authorization` header value for HTTP Basic `login:password`. */
export function basicAuth(login: string, password: string): string {
  return `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
}

/** Creates a user with the role (login defaults to a unique `<role>_<random>`) and an application password. */
export async function userWithRole(
  app: AppServices,
  role: Role,
  login?: string,
): Promise<{ user: AuthUser; authorization: string; password: string; uuid: string }> {
  const name = login ?? `${role}_${crypto.randomBytes(4).toString('hex')}`;
  const row = await createUser(app, { login: name, email: `${name}@example.test`, role });
  const created = await createAppPassword(app, row.id, { name: 'tests' });
  return { user: toAuthUser(row), authorization: basicAuth(row.login, created.password), password: created.password, uuid: created.uuid };
}
