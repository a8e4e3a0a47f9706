import type { Role } from './roles.ts';

/** The authenticated caller of a request. */
export interface AuthUser {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: Role;
  can(cap: string): boolean;
}
