// Every migration of the site, in order. Modules append theirs here.
import type { SiteMigration } from '../migration.ts';
import { coreMigration } from './0001_core.ts';

export const MIGRATIONS: SiteMigration[] = [coreMigration];
