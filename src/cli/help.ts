// The CLI's help, in wp-cli's manner: `content-site help [<command>]`, `<command> --help`.
// Everything comes from the commands' own declarations (src/cli/command.ts); lines are
// wrapped to WIDTH columns.
import { synopsisWords } from './args.ts';
import type { CliCommand } from './command.ts';

export const WIDTH = 100;

/** Words of `text` (or the given words) in lines of at most `width` columns, each starting with `indent`. */
export function wrap(text: string | string[], indent = '', width = WIDTH): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of typeof text === 'string' ? text.split(/\s+/).filter(Boolean) : text) {
    if (line && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(indent + line);
  return lines;
}

/** `name  text` rows with the texts aligned and wrapped beside the names. */
function definitions(rows: [string, string][], indent = '  '): string[] {
  const width = Math.min(24, Math.max(...rows.map(([name]) => name.length)));
  const out: string[] = [];
  for (const [name, text] of rows) {
    const hang = indent + ' '.repeat(width + 2);
    const body = wrap(text, hang);
    if (name.length <= width) out.push(indent + name.padEnd(width + 2) + body[0]!.slice(hang.length), ...body.slice(1));
    else out.push(indent + name, ...body);
  }
  return out;
}

/** The commands with each group's together (modules add to the host's groups), groups in order of appearance. */
function grouped(commands: readonly CliCommand[]): CliCommand[] {
  const group = (c: CliCommand) => c.name.split(' ')[0];
  return [...new Set(commands.map(group))].flatMap((g) => commands.filter((c) => group(c) === g));
}

export function topLevelHelp(commands: readonly CliCommand[]): string {
  return [
    'usage: content-site <command> [<arguments>]',
    '',
    'In the project folder run it as npx content-site (it is not on PATH unless you add',
    'node_modules/.bin).',
    '',
    'Commands:',
    ...definitions(grouped(commands).map((c) => [c.name, c.summary])),
    '',
    ...wrap(
      'Environment: DATABASE_URL (sqlite:<path> or postgres://…; default sqlite:data/site.db), PORT, HOST, SITE_URL, DATA_DIR, ' +
        'LOG_LEVEL, LOG_FORMAT, ACCESS_LOG, TRUST_PROXY, SMTP_URL; ' +
        'read from .env in the working folder too. On PostgreSQL, PGOPTIONS="-c search_path=<schema>" selects a schema.',
    ),
    '',
    'Run content-site help <command> (or content-site <command> --help) for its options and examples.',
    '',
  ].join('\n');
}

/** The subcommands of a group (`content-site user --help`). */
export function groupHelp(group: string, commands: readonly CliCommand[]): string {
  return [
    `usage: content-site ${group} <subcommand> [<arguments>]`,
    '',
    'Subcommands:',
    ...definitions(commands.map((c) => [c.name.slice(group.length + 1), c.summary])),
    '',
    `Run content-site help ${group} <subcommand> for its options and examples.`,
    '',
  ].join('\n');
}

export function commandHelp(c: CliCommand): string {
  const args: [string, string][] = [
    ...(c.args.positionals ?? []).map((p): [string, string] => [p.optional ? `[<${p.name}>]` : `<${p.name}>`, p.help]),
    ...Object.entries(c.args.options ?? {}).map(([name, o]): [string, string] => [
      o.type === 'boolean' ? `--${name}` : `--${name} <${o.value ?? 'value'}>`,
      o.help,
    ]),
  ];
  const out = ['NAME', '', `  content-site ${c.name}`, '', 'DESCRIPTION', '', ...wrap(c.summary, '  ')];
  for (const paragraph of c.description ?? []) out.push('', ...wrap(paragraph, '  '));
  out.push(
    '',
    'SYNOPSIS',
    '',
    ...wrap(['content-site', ...synopsisWords(c)], '  ').map((l, i) => (i ? `    ${l}` : l)),
  );
  if (args.length) out.push('', 'OPTIONS', '', ...definitions(args));
  for (const section of c.sections ?? [])
    out.push('', section.title.toUpperCase(), '', ...section.lines.map((l) => (l ? `  ${l}` : '')));
  if (c.examples.length) {
    out.push('', 'EXAMPLES');
    // Commands are not wrapped: they are to be copied.
    for (const e of c.examples) out.push('', ...wrap(`# ${e.help}`, '  '), `  $ npx content-site ${e.command}`);
  }
  return out.join('\n') + '\n';
}
