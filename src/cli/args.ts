// Argument parsing shared by the commands: node:util parseArgs, with every mistake turned
// into a one-line CliError that shows the command's usage.
import { parseArgs } from 'node:util';
import { CliError, type CliCommand } from './command.ts';
import type { ActivityOrigin } from '../site/activity.ts';

export interface ArgSpec {
  /** Names of the required positional arguments, e.g. ['login', 'role']. */
  positionals?: string[];
  options?: Record<string, { type: 'string' | 'boolean' }>;
  /** Options that must be given, e.g. ['email', 'role']. */
  required?: string[];
}

export interface ParsedArgs {
  positionals: string[];
  strings: Record<string, string | undefined>;
  flags: Record<string, boolean>;
}

export function parseCommandArgs(command: Pick<CliCommand, 'usage'>, args: string[], spec: ArgSpec): ParsedArgs {
  const usage = `usage: content-site ${command.usage}`;
  let parsed;
  try {
    parsed = parseArgs({ args, options: spec.options ?? {}, allowPositionals: true, strict: true });
  } catch (err) {
    // parseArgs explains at length; its first sentence says what is wrong.
    throw new CliError(`${(err as Error).message.split(/(?<=\.) /)[0]} (${usage})`);
  }
  const names = spec.positionals ?? [];
  if (parsed.positionals.length < names.length) throw new CliError(`missing <${names[parsed.positionals.length]}> (${usage})`);
  if (parsed.positionals.length > names.length) throw new CliError(`unexpected argument "${parsed.positionals[names.length]}" (${usage})`);
  const strings: Record<string, string | undefined> = {};
  const flags: Record<string, boolean> = {};
  for (const [name, def] of Object.entries(spec.options ?? {})) {
    const value = (parsed.values as Record<string, string | boolean | undefined>)[name];
    if (def.type === 'boolean') flags[name] = value === true;
    else strings[name] = value as string | undefined;
  }
  for (const name of spec.required ?? []) if (strings[name] === undefined) throw new CliError(`missing --${name} (${usage})`);
  return { positionals: parsed.positionals, strings, flags };
}

/** Writes done from the command line are recorded in the activity log as `cms_cli`. */
export const CLI_ORIGIN: ActivityOrigin = { user: null, ip: '', initiator: 'cms_cli' };

/** A whole number option within bounds (`--count 1000`); `fallback` when the option is absent. */
export function wholeNumberOption(value: string | undefined, name: string, bounds: { min: number; max: number }, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) throw new CliError(`missing --${name}`);
    return fallback;
  }
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < bounds.min || n > bounds.max) {
    throw new CliError(`--${name} must be a whole number from ${bounds.min} to ${bounds.max}, got "${value}"`);
  }
  return n;
}
