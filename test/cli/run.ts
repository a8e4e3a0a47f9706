// Runs the real `content-site` command in a child process against a test database.
import { execFile } from 'node:child_process';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');
export const NODE = path.join(ROOT, 'node_modules/.bin/node');
export const BIN = path.join(ROOT, 'bin/content-site.js');

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** What a child process needs to reach a test database. */
export interface CliTarget {
  databaseUrl: string;
  pgSchema?: string;
  config: { dataDir: string };
}

/** Environment that points a child process at the test database (PostgreSQL: its schema via PGOPTIONS). */
export function cliEnv(t: CliTarget, extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DATABASE_URL: t.databaseUrl,
    DATA_DIR: t.config.dataDir,
    ...extra,
  };
  if (t.pgSchema) env.PGOPTIONS = `-c search_path=${t.pgSchema}`;
  return env;
}

/** Runs the command; `input` is its standard input (else an empty one). */
export function runCli(
  t: CliTarget,
  args: string[],
  extraEnv: Record<string, string> = {},
  input = '',
): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(NODE, [BIN, ...args], { cwd: ROOT, env: cliEnv(t, extraEnv) }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(input);
  });
}
