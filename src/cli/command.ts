// One subcommand of the `content-site` CLI. Modules contribute commands (SiteModule.commands); src/cli/main.ts
// dispatches on the longest matching name ("app-password create", "events generate", …).
// Each command declares its arguments once, with their help texts: the parser
// (src/cli/args.ts) and the help (src/cli/help.ts) both read that declaration.
import type { Config } from '../config.ts';
import type { AppServices } from '../site/services.ts';

export interface CliContext {
  config: Config;
  /** Opens (and migrates) the database named by DATABASE_URL. The command must not close it. */
  openApp(): Promise<AppServices>;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
  /** Standard input, for commands that read a secret or data from it (default: the process's). */
  stdin?: NodeJS.ReadableStream;
}

export interface PositionalSpec {
  /** As shown in the synopsis, e.g. "login" → `<login>`. */
  name: string;
  help: string;
  optional?: boolean;
}

export interface OptionSpec {
  type: 'string' | 'boolean';
  /** What a string option takes, shown as `--email <address>`; default "value". */
  value?: string;
  help: string;
  required?: boolean;
}

/** A command's arguments: positionals in order, then `--options`. */
export interface ArgSpec {
  positionals?: PositionalSpec[];
  options?: Record<string, OptionSpec>;
}

export interface CliCommand {
  /** Space-separated command words, e.g. "user create". */
  name: string;
  /** One line for the command list. */
  summary: string;
  args: ArgSpec;
  /** Paragraphs of the command's help after the summary. */
  description?: string[];
  /** Command lines (without `npx content-site`) and what each does. */
  examples: { command: string; help: string }[];
  /** Further sections of the help, e.g. a file format: a title and preformatted lines. */
  sections?: { title: string; lines: string[] }[];
  /** Runs with the arguments after the command words; returns the exit code. */
  run(args: string[], ctx: CliContext): Promise<number>;
}

/** A user mistake: printed as one line on stderr, exit code 1, no stack trace. */
export class CliError extends Error {}
