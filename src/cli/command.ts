// One subcommand of the `content-site` CLI. Modules contribute commands (SiteModule.commands); src/cli/main.ts
// dispatches on the longest matching name ("app-password create", "events generate", …).
import type { Config } from '../config.ts';
import type { AppServices } from '../site/services.ts';

export interface CliContext {
  config: Config;
  /** Opens (and migrates) the database named by DATABASE_URL. The command must not close it. */
  openApp(): Promise<AppServices>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

export interface CliCommand {
  /** Space-separated command words, e.g. "user create". */
  name: string;
  /** One line for the help text, e.g. "user create <login> --email E --role R [--password P]". */
  usage: string;
  summary: string;
  /** Runs with the arguments after the command words; returns the exit code. */
  run(args: string[], ctx: CliContext): Promise<number>;
}

/** A user mistake: printed as one line on stderr, exit code 1, no stack trace. */
export class CliError extends Error {}
