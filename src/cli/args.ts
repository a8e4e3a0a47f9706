// Argument parsing shared by the commands: node:util parseArgs over the command's declared
// arguments (CliCommand.args), with every mistake turned into a one-line CliError that shows
// the command's synopsis.
import { parseArgs } from 'node:util';
import { CliError, type CliCommand } from './command.ts';

export interface ParsedArgs {
  positionals: string[];
  strings: Record<string, string | undefined>;
  flags: Record<string, boolean>;
}

/** The synopsis in words: `user create`, `<login>`, `--email <address>`, `[--password <password>]`… */
export function synopsisWords(command: Pick<CliCommand, 'name' | 'args'>): string[] {
  const words = [command.name];
  for (const p of command.args.positionals ?? []) words.push(p.optional ? `[<${p.name}>]` : `<${p.name}>`);
  for (const [name, o] of Object.entries(command.args.options ?? {})) {
    const option = o.type === 'boolean' ? `--${name}` : `--${name} <${o.value ?? 'value'}>`;
    words.push(o.required ? option : `[${option}]`);
  }
  return words;
}

/** `user create <login> --email <address> --role <role> [--password <password>] …` */
export function synopsis(command: Pick<CliCommand, 'name' | 'args'>): string {
  return synopsisWords(command).join(' ');
}

/** parseArgs's message, which runs over three lines for some mistakes, as one short line. */
function parseArgsProblem(err: Error & { code?: string }): string {
  const option = /^Option '(-[^' ]+)/.exec(err.message)?.[1];
  if (option && /ambiguous/.test(err.message))
    return `${option} needs a value; for a value that starts with "-" write ${option}=<value>`;
  if (option && /argument missing/.test(err.message)) return `${option} needs a value`;
  if (option && /does not take an argument/.test(err.message)) return `${option} takes no value`;
  return err.message.split('\n')[0]!.split(/(?<=\.) /)[0]!;
}

export function parseCommandArgs(command: Pick<CliCommand, 'name' | 'args'>, args: string[]): ParsedArgs {
  const usage = `usage: content-site ${synopsis(command)}`;
  const options = Object.fromEntries(
    Object.entries(command.args.options ?? {}).map(([name, o]) => [name, { type: o.type }]),
  );
  let parsed;
  try {
    parsed = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (err) {
    throw new CliError(`${parseArgsProblem(err as Error)} (${usage})`);
  }
  const declared = command.args.positionals ?? [];
  const needed = declared.filter((p) => !p.optional).length;
  if (parsed.positionals.length < needed)
    throw new CliError(`missing <${declared[parsed.positionals.length]!.name}> (${usage})`);
  if (parsed.positionals.length > declared.length)
    throw new CliError(`unexpected argument "${parsed.positionals[declared.length]}" (${usage})`);
  const strings: Record<string, string | undefined> = {};
  const flags: Record<string, boolean> = {};
  for (const [name, def] of Object.entries(command.args.options ?? {})) {
    const value = (parsed.values as Record<string, string | boolean | undefined>)[name];
    if (def.type === 'boolean') flags[name] = value === true;
    else strings[name] = value as string | undefined;
    if (def.required && value === undefined) throw new CliError(`missing --${name} (${usage})`);
  }
  return { positionals: parsed.positionals, strings, flags };
}

/** A whole number option within bounds (`--count 1000`); `fallback` when the option is absent. */
export function wholeNumberOption(
  value: string | undefined,
  name: string,
  bounds: { min: number; max: number },
  fallback?: number,
): number {
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
