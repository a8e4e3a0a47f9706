// The WordPress site inside the source database: its table prefix (given or detected), which
// tables exist (plugins' tables are optional), its options, and batched reads by id.
import { ImportError } from '../errors.ts';
import type { SourceConnection, SourceRow } from './connection.ts';
import { phpValue } from './php.ts';

/** The tables without which a database is no WordPress site. */
const CORE_TABLES = ['options', 'users', 'usermeta', 'posts'];
const PREFIX_PATTERN = /^[A-Za-z0-9_]*$/;

export class WordPressSource {
  readonly db: SourceConnection;
  readonly prefix: string;
  private readonly tables: Set<string>;
  private options: Map<string, string> | null = null;

  private constructor(db: SourceConnection, prefix: string, tables: Set<string>) {
    this.db = db;
    this.prefix = prefix;
    this.tables = tables;
  }

  /** Finds the site's tables: with `prefix` given, checks them; otherwise the one prefix with WordPress's core tables. */
  static async open(db: SourceConnection, prefix?: string): Promise<WordPressSource> {
    if (prefix !== undefined && !PREFIX_PATTERN.test(prefix))
      throw new ImportError(`--prefix: "${prefix}" is not a table prefix (letters, digits and _ only)`);
    const rows = await db.query<{ name: string }>(
      'SELECT table_name AS name FROM information_schema.tables WHERE table_schema = DATABASE()',
    );
    const all = new Set(rows.map((r) => String(r.name)));
    const candidates = [...all]
      .filter((t) => t.endsWith('options'))
      .map((t) => t.slice(0, -'options'.length))
      .filter((p) => CORE_TABLES.every((t) => all.has(p + t)))
      .sort();
    let chosen = prefix;
    if (chosen === undefined) {
      if (candidates.length === 0)
        throw new ImportError(
          `${db.address.database} holds no WordPress site (no tables *options, *users, *usermeta and *posts of one prefix)`,
        );
      if (candidates.length > 1)
        throw new ImportError(
          `${db.address.database} holds several WordPress sites (table prefixes ${candidates.join(', ')}): choose one with --prefix`,
        );
      chosen = candidates[0]!;
    } else if (!candidates.includes(chosen)) {
      const hint = candidates.length
        ? ` (found prefix${candidates.length > 1 ? 'es' : ''} ${candidates.join(', ')})`
        : '';
      throw new ImportError(`${db.address.database} has no WordPress tables with prefix "${chosen}"${hint}`);
    }
    const own = new Set([...all].filter((t) => t.startsWith(chosen)).map((t) => t.slice(chosen.length)));
    return new WordPressSource(db, chosen, own);
  }

  /** Whether the site has the table (name without prefix, e.g. `simple_history`). */
  has(table: string): boolean {
    return this.tables.has(table);
  }

  /** The quoted full name of one of the site's tables. */
  table(name: string): string {
    return `\`${(this.prefix + name).replace(/`/g, '``')}\``;
  }

  /** Every option as stored (text; serialized values unparsed). */
  async loadOptions(): Promise<Map<string, string>> {
    if (!this.options) {
      const rows = await this.db.query<{ option_name: string; option_value: string }>(
        `SELECT option_name, option_value FROM ${this.table('options')}`,
      );
      this.options = new Map(rows.map((r) => [String(r.option_name), String(r.option_value ?? '')]));
    }
    return this.options;
  }

  async option(name: string): Promise<string | undefined> {
    return (await this.loadOptions()).get(name);
  }

  /** An option's value, unserialized. */
  async optionValue(name: string): Promise<unknown> {
    const text = await this.option(name);
    return text === undefined ? undefined : phpValue(text);
  }

  /** The site's address without a trailing slash (`siteurl`, else `home`). */
  async siteUrl(): Promise<string> {
    const url = (await this.option('siteurl')) || (await this.option('home')) || '';
    return url.replace(/\/+$/, '');
  }

  /**
   * Rows of a table in ascending order of a numeric id column, `size` at a time, starting
   * after `after`: a keyset scan that holds one batch in memory and resumes anywhere.
   */
  async *batches<T extends SourceRow>(
    select: string,
    idColumn: string,
    after: number,
    size: number,
    where = '',
  ): AsyncGenerator<T[]> {
    let last = after;
    for (;;) {
      const rows = await this.db.query<T>(
        `${select} WHERE ${idColumn} > ? ${where ? `AND (${where})` : ''} ORDER BY ${idColumn} LIMIT ${size}`,
        [last],
      );
      if (!rows.length) return;
      yield rows;
      if (rows.length < size) return;
      last = Number(rows[rows.length - 1]![idColumn.replace(/^.*\./, '').replace(/`/g, '')]);
    }
  }

  async count(table: string, where = '', params: unknown[] = []): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT COUNT(*) AS n FROM ${this.table(table)}${where ? ` WHERE ${where}` : ''}`,
      params,
    );
    return Number(rows[0]?.n ?? 0);
  }
}
