// The typed shape of every table, for Kysely. Namespaces add their tables' interfaces here.
import type { Generated } from 'kysely';

export interface OptionsTable {
  name: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  role: string;
  password_hash: string | null;
  status: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
}

export interface AppPasswordsTable {
  uuid: string;
  user_id: number;
  app_id: string;
  name: string;
  password_hash: string;
  created_at: string;
  last_used: string | null;
  last_ip: string | null;
}

export interface Database {
  options: OptionsTable;
  users: UsersTable;
  app_passwords: AppPasswordsTable;
}
