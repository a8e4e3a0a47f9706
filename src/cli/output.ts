// Lists on standard output in the format the caller asks for (`--format table|json|csv`, as
// wp-cli's list commands). json and csv carry every field of the items, as the API shows them
// (times in UTC); the table is for people: the columns that fit, times in the site's zone.
import { stringify } from 'csv-stringify/sync';
import { CliError, type OptionSpec } from './command.ts';

export const FORMATS = ['table', 'json', 'csv'] as const;
export type Format = (typeof FORMATS)[number];

/** The `--format` option of every list command, and `--json` (kept from before as its short form). */
export const FORMAT_OPTIONS: Record<string, OptionSpec> = {
  format: {
    type: 'string',
    value: FORMATS.join('|'),
    help: 'Output format: a table for people (default), or json or csv for programs (every field, times in UTC).',
  },
  json: { type: 'boolean', help: 'Same as --format json.' },
};

export function formatOption(strings: Record<string, string | undefined>, flags: Record<string, boolean>): Format {
  const format = strings.format ?? (flags.json ? 'json' : 'table');
  if (!(FORMATS as readonly string[]).includes(format))
    throw new CliError(`--format must be one of ${FORMATS.join(', ')}, got "${format}"`);
  if (flags.json && format !== 'json') throw new CliError(`--json and --format ${format} contradict each other`);
  return format as Format;
}

export interface TableColumn<T> {
  header: string;
  cell(item: T): string;
}

/**
 * Writes `items` as a table (the given columns), a JSON array, or CSV with a header row of
 * `fields` (every field of an item, named even when the list is empty).
 */
export function writeList<T extends object>(
  out: NodeJS.WritableStream,
  format: Format,
  items: T[],
  shape: { fields: (keyof T & string)[]; columns: TableColumn<T>[] },
): void {
  const { fields, columns } = shape;
  if (format === 'json') out.write(JSON.stringify(items, null, 2) + '\n');
  else if (format === 'csv')
    out.write(stringify(items as Record<string, unknown>[], { header: true, columns: fields }));
  else
    out.write(
      table(
        columns.map((c) => c.header),
        items.map((item) => columns.map((c) => c.cell(item))),
      ),
    );
}

/** Plain-text table with left-aligned columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) =>
    cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  return [header, ...rows].map(line).join('');
}
