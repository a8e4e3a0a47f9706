// The site's files on disk (DATA_DIR, its logs, the SQLite database): checked before a start
// writes anything, created owner-only, and reported when others than the owner may open them
// (the database holds password hashes, session hashes and the site's secrets).
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';
import { sqliteFile, sqliteFiles, StorageError } from '../db/index.ts';
import { errorCode } from '../util.ts';

/** The path itself when it exists, else its nearest existing ancestor. */
function nearestExisting(p: string): string {
  let current = p;
  while (!fs.existsSync(current) && path.dirname(current) !== current) current = path.dirname(current);
  return current;
}

/** Throws StorageError unless `dir` is, or can be created as, a folder this process may write in. Creates nothing. */
function checkWritableFolder(dir: string, what: string): void {
  const existing = nearestExisting(dir);
  let problem: string | null = null;
  try {
    if (!fs.statSync(existing).isDirectory()) problem = `${existing} is not a folder`;
    else fs.accessSync(existing, fs.constants.W_OK | fs.constants.X_OK);
  } catch (err) {
    problem = `${existing}: ${errorCode(err)}`;
  }
  if (problem) throw new StorageError(`${what} ${dir} is not writable (${problem}); nothing was created`);
}

/**
 * Before `serve` writes anything: DATA_DIR, its logs folder and the SQLite database's folder
 * (and file, when it exists) must be writable. Then DATA_DIR and the logs folder are created,
 * owner-only (0700). A failed check throws StorageError and leaves everything as it was: a
 * start that crashed half-way left a database whose next start skipped the first start.
 */
export function prepareStorage(config: Config): void {
  const database = sqliteFile(config.databaseUrl);
  const logs = path.join(config.dataDir, 'logs');
  checkWritableFolder(config.dataDir, 'DATA_DIR');
  checkWritableFolder(logs, 'the log folder');
  if (database) {
    checkWritableFolder(path.dirname(database), 'the database folder');
    if (fs.existsSync(database)) {
      try {
        fs.accessSync(database, fs.constants.R_OK | fs.constants.W_OK);
      } catch (err) {
        throw new StorageError(`the database ${database} is not writable (${errorCode(err)})`);
      }
    }
  }
  fs.mkdirSync(logs, { recursive: true, mode: 0o700 });
}

/** DATA_DIR and the database files that others than their owner may open (mode beyond 0700 / 0600). */
export function exposedFiles(config: Config): string[] {
  const database = sqliteFile(config.databaseUrl);
  return [config.dataDir, ...(database ? sqliteFiles(database) : [])].filter((file) => {
    try {
      return (fs.statSync(file).mode & 0o077) !== 0;
    } catch {
      return false; // absent (no -shm yet, PostgreSQL)
    }
  });
}
