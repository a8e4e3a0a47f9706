// The `content-site` command: dispatches to the command whose words match the start of the
// arguments (longest name first), turns user mistakes into one line on stderr and exit 1.
import { pino } from 'pino';
import { openApp, type AppServices } from '../app.ts';
import { loadConfig } from '../config.ts';
import { StorageError } from '../db/index.ts';
import { DatabaseTooNewError } from '../db/migrate.ts';
import { RestError } from '../rest/types.ts';
import { CliError, type CliCommand, type CliContext } from './command.ts';
import { COMMANDS } from './commands.ts';

export interface CliIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
}

const HELP_FLAGS = new Set(['--help', '-h', 'help']);

function findCommand(argv: string[]): CliCommand | undefined {
  const byLength = [...COMMANDS].sort((a, b) => b.name.split(' ').length - a.name.split(' ').length);
  return byLength.find((c) => {
    const words = c.name.split(' ');
    return words.every((w, i) => argv[i] === w);
  });
}

function helpText(): string {
  const width = Math.max(...COMMANDS.map((c) => c.usage.length));
  return [
    'usage: content-site <command> [arguments]',
    '',
    'Commands:',
    ...COMMANDS.map((c) => `  ${c.usage.padEnd(width)}  ${c.summary}`),
    '',
    'Environment: DATABASE_URL (sqlite:<path> or postgres://…; default sqlite:data/site.db), PORT, HOST, SITE_URL,',
    'DATA_DIR, LOG_LEVEL. On PostgreSQL, PGOPTIONS="-c search_path=<schema>" selects a schema.',
    'Run content-site <command> --help for one command.',
    '',
  ].join('\n');
}

export async function runCli(argv: string[], io: CliIo = { stdout: process.stdout, stderr: process.stderr, env: process.env }): Promise<number> {
  const fail = (message: string) => {
    io.stderr.write(`content-site: ${message}\n`);
    return 1;
  };
  if (argv.length === 0 || HELP_FLAGS.has(argv[0]!)) {
    (argv.length ? io.stdout : io.stderr).write(helpText());
    return argv.length ? 0 : 1;
  }
  const command = findCommand(argv);
  if (!command) {
    const group = COMMANDS.filter((c) => c.name.startsWith(`${argv[0]} `)).map((c) => c.name.split(' ')[1]);
    if (group.length) return fail(`"${argv[0]}" needs one of: ${group.join(', ')} (see content-site --help)`);
    return fail(`unknown command "${argv[0]}" (see content-site --help)`);
  }
  const args = argv.slice(command.name.split(' ').length);
  if (args.some((a) => a === '--help' || a === '-h')) {
    io.stdout.write(`usage: content-site ${command.usage}\n${command.summary}\n`);
    return 0;
  }

  const opened: { app?: Promise<AppServices> } = {};
  try {
    const config = loadConfig(io.env);
    const ctx: CliContext = {
      config,
      // Logs go to stderr so that stdout stays clean for --json output.
      // The database must exist: a mistyped SQLite path is refused, not made a new empty site.
      openApp: () => (opened.app ??= openApp(config, { mustExist: true, logger: pino({ level: io.env.LOG_LEVEL ?? 'warn' }, pino.destination(2)) })),
      stdout: io.stdout,
      stderr: io.stderr,
    };
    return await command.run(args, ctx);
  } catch (err) {
    if (err instanceof CliError || err instanceof RestError || err instanceof DatabaseTooNewError || err instanceof StorageError) return fail(err.message);
    io.stderr.write(`content-site: ${command.name} failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  } finally {
    if (opened.app) await (await opened.app.catch(() => null))?.close();
  }
}

if (import.meta.main) process.exitCode = await runCli(process.argv.slice(2));
