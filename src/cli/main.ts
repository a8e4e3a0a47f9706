// The `content-site` command: dispatches to the command whose words match the start of the
// arguments (longest name first), turns user mistakes and problems of the environment
// (configuration, database, network) into one line on stderr and exit 1.
import fs from 'node:fs';
import { pino } from 'pino';
import { openApp } from '../app.ts';
import type { AppServices } from '../site/services.ts';
import { ConfigError, loadConfig, maskPassword, type Config } from '../config.ts';
import { StorageError } from '../db/index.ts';
import { DatabaseTooNewError } from '../db/migrate.ts';
import { RestError } from '../rest/types.ts';
import { CliError, type CliCommand, type CliContext } from './command.ts';
import { COMMANDS } from './commands.ts';
import { commandHelp, groupHelp, topLevelHelp } from './help.ts';
import { readableStream, wantsReadable } from '../server/console-log.ts';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  /** Default: the process's standard input. */
  stdin?: NodeJS.ReadableStream;
}

const HELP_FLAGS = new Set(['--help', '-h']);

/** The command whose words start `argv` (the longest such name). */
function findCommand(argv: string[]): CliCommand | undefined {
  const byLength = [...COMMANDS].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  return byLength.find((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  });
}

function groupOf(word: string | undefined): CliCommand[] {
  return COMMANDS.filter((c) => c.name.startsWith(`${word} `));
}

/**
 * The help for the leading words of `words` (other words are arguments of the command): a
 * command's, a group's, the list of all commands for none; null when they name nothing.
 */
function helpFor(words: string[]): string | null {
  if (!words.length) return topLevelHelp(COMMANDS);
  const command = findCommand(words);
  if (command) return commandHelp(command);
  return groupOf(words[0]).length ? groupHelp(words[0]!, groupOf(words[0])) : null;
}

export async function runCli(
  argv: string[],
  io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env },
): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`content-site: ${message}\n`);
    return 1;
  };
  if (argv.length === 0) {
    io.stderr.write(topLevelHelp(COMMANDS));
    return 1;
  }
  // `help [<command>]`, `--help`, `<command> [<subcommand>] --help`.
  if (argv[0] === 'help' || argv.some((a) => HELP_FLAGS.has(a))) {
    const words = (argv[0] === 'help' ? argv.slice(1) : argv).filter((a) => !a.startsWith('-'));
    const text = helpFor(words);
    if (text === null) return fail(`unknown command "${words[0]}" (see content-site help)`);
    io.stdout.write(text);
    return 0;
  }
  const command = findCommand(argv);
  if (!command) {
    const group = groupOf(argv[0]).map((c) => c.name.split(' ')[1]);
    if (group.length) return fail(`"${argv[0]}" needs one of: ${group.join(', ')} (see content-site help ${argv[0]})`);
    return fail(`unknown command "${argv[0]}" (see content-site help)`);
  }
  const args = argv.slice(command.name.split(' ').length);

  const opened: { app?: Promise<AppServices> } = {};
  let config: Config | null = null;
  try {
    config = loadConfig(io.env);
    const appConfig = config;
    const ctx: CliContext = {
      config,
      // Logs go to stderr so that stdout stays clean for --json output.
      // The database must exist: a mistyped SQLite path is refused, not made a new empty site.
      openApp: () => (opened.app ??= openApp(appConfig, { mustExist: true, logger: cliLogger(appConfig, io.stderr) })),
      stdout: io.stdout,
      stderr: io.stderr,
      stdin: io.stdin ?? process.stdin,
    };
    return await command.run(args, ctx);
  } catch (err) {
    const problem = environmentProblem(err, config);
    if (problem) return fail(problem);
    io.stderr.write(
      `content-site: ${command.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    return 1;
  } finally {
    if (opened.app) await (await opened.app.catch(() => null))?.close();
  }
}

/** The log of commands other than serve: warnings and worse on stderr, readable at a terminal. */
function cliLogger(config: Config, stderr: NodeJS.WritableStream & { isTTY?: boolean }): pino.Logger {
  const level = config.logLevel ?? 'warn';
  return pino({ level }, wantsReadable(config.logFormat, stderr) ? readableStream(stderr) : pino.destination(2));
}

interface ErrorFields {
  code?: unknown;
  syscall?: unknown;
  hostname?: unknown;
  address?: unknown;
  port?: unknown;
  path?: unknown;
  severity?: unknown;
  errors?: unknown;
}

/**
 * One line for a failure that is the user's to fix (a mistake in the arguments or the
 * configuration, a database that is missing or down, a port in use…): what is wrong and what
 * to do. Null for anything else — a bug, which keeps its stack trace.
 */
export function environmentProblem(err: unknown, config: Config | null): string | null {
  if (
    err instanceof CliError ||
    err instanceof ConfigError ||
    err instanceof RestError ||
    err instanceof DatabaseTooNewError ||
    err instanceof StorageError
  )
    return err.message;
  if (!(err instanceof Error)) return null;
  // Connecting to every address of a name fails as one AggregateError of the same kind.
  const first = err instanceof AggregateError && err.errors[0] instanceof Error ? err.errors[0] : err;
  const e = first as Error & ErrorFields;
  const code =
    typeof e.code === 'string'
      ? e.code
      : typeof (err as ErrorFields).code === 'string'
        ? ((err as ErrorFields).code as string)
        : '';
  const database = config ? maskPassword(config.databaseUrl) : 'DATABASE_URL';
  const pg = config && !config.databaseUrl.startsWith('sqlite:') ? new URL(config.databaseUrl) : null;
  const listening = config ? `${config.host}:${config.port}` : 'HOST:PORT';

  if (e.syscall === 'listen') {
    if (code === 'EADDRINUSE')
      return `cannot listen on ${listening}: the port is already in use (another server?). Stop that process or set PORT to a free port.`;
    if (code === 'EADDRNOTAVAIL')
      return `cannot listen on ${listening}: HOST is not an address of this machine. Set HOST to one of its addresses, 127.0.0.1, or 0.0.0.0 for all.`;
    if (code === 'EACCES')
      return `cannot listen on ${listening}: no permission for that port. Use a port above 1023 (behind a reverse proxy, see docs/deploy/).`;
  }
  if ((code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') && typeof e.hostname === 'string') {
    if (config && e.hostname === config.host)
      return `HOST "${config.host}" cannot be resolved to an address. Set HOST to an address of this machine, e.g. 127.0.0.1 or 0.0.0.0.`;
    if (pg && e.hostname === pg.hostname)
      return `the PostgreSQL host "${e.hostname}" of DATABASE_URL (${database}) cannot be resolved. Check the host name.`;
  }
  if (pg && ['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET'].includes(code)) {
    const at =
      typeof e.address === 'string'
        ? `${e.address}:${String(e.port ?? pg.port ?? 5432)}`
        : `${pg.hostname}:${pg.port || 5432}`;
    const why = code === 'ECONNREFUSED' ? 'connection refused' : code;
    return `cannot connect to PostgreSQL at ${at} (${why}). Start PostgreSQL, or fix the host and port in DATABASE_URL (${database}).`;
  }
  // PostgreSQL's own answers (SQLSTATE codes) while connecting.
  if (pg && typeof e.severity === 'string') {
    const name = decodeURIComponent(pg.pathname.slice(1)) || pg.username;
    if (code === '3D000')
      return `the PostgreSQL database "${name}" does not exist. Create it, e.g. createdb --template=template0 --locale=C.UTF-8 ${name}, or fix DATABASE_URL (${database}).`;
    if (code === '28P01' || code === '28000')
      return `PostgreSQL refused the login: ${e.message}. Check the user and password in DATABASE_URL (${database}) or PGPASSWORD.`;
    if (code === '3F000') return `PostgreSQL: ${e.message}. Create the schema or fix PGOPTIONS.`;
    if (code.startsWith('08') || code.startsWith('53') || code.startsWith('57P'))
      return `PostgreSQL is not available: ${e.message} (${database}).`;
  }
  if (
    config?.databaseUrl.startsWith('sqlite:') &&
    (code === 'SQLITE_CANTOPEN' || code === 'SQLITE_NOTADB' || code === 'SQLITE_READONLY')
  ) {
    const file = config.databaseUrl.slice('sqlite:'.length);
    if (code === 'SQLITE_NOTADB')
      return `${file} is not an SQLite database. Point DATABASE_URL at the site's database file.`;
    return `cannot open the SQLite database ${file} for writing (${code}). Check that its folder exists and is writable, or fix DATABASE_URL.`;
  }
  if (
    (code === 'EACCES' || code === 'EROFS' || code === 'ENOSPC' || code === 'ENOTDIR') &&
    typeof e.path === 'string'
  ) {
    return `cannot write ${e.path} (${code}). Check DATA_DIR (${config?.dataDir ?? 'data'}) and the permissions of that folder.`;
  }
  return null;
}

/** Loads `.env` from the working directory, if there is one; variables already set win. */
export function loadDotEnv(file = '.env'): void {
  if (fs.existsSync(file)) process.loadEnvFile(file);
}

/** The command as started from a shell: `.env`, then the arguments. */
export async function main(): Promise<number> {
  try {
    loadDotEnv();
  } catch (err) {
    process.stderr.write(`content-site: cannot read .env: ${err instanceof Error ? err.message : String(err)}\n`);
    return 1;
  }
  return runCli(process.argv.slice(2));
}

if (import.meta.main) process.exitCode = await main();
