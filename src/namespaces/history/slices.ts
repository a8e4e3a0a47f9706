// Reads of the log that test row after row go in slices on SQLite.
//
// better-sqlite3 runs every statement on the server's only thread: while one reads, no other
// request is answered. Most reads of the log are short (an index leads to their rows, or the
// first rows read by date match), but a filter no index serves reads until it has its rows: a
// search for a word found nowhere tested all of 1,000,000 events in one statement, 0.4–0.5 s
// during which every other request waited, and its total scanned the table for 0.25 s more.
// Such reads are cut into slices here, and the event loop runs between them:
// - matching rows newest first (a page's walk, a grouped count's chunks), when SQLite walks the
//   date index for them: in slices of that index, growing from `first` to `most` rows, each
//   ending at the position of its last row (found through the index alone);
// - counts, when SQLite scans the whole table for them: in ranges of `countIds` ids.
// Whether SQLite walks or scans is read from its query plan, once per statement text. A plan
// served by another index is left alone: the index bounds it. PostgreSQL runs a statement on
// its own connection and holds nobody: one statement each.
import { setImmediate as nextTurn } from 'node:timers/promises';
import { CompiledQuery, expressionBuilder, sql, type Compilable, type Expression, type SqlBool } from 'kysely';
import type { AppServices } from '../../app.ts';
import type { Database } from '../../db/schema.ts';
import { pos } from './runs.ts';

export interface Slices {
  /** Rows of the date index in the first slice of a walk (most walks end in it). */
  first: number;
  /** … and in the largest slice, which bounds the time a slice holds the thread. */
  most: number;
  /** Ids per slice of a count. */
  countIds: number;
}

/** About 5–15 ms per slice on 1,000,000 events (a LIKE on every row). */
export const SLICES: Slices = { first: 1000, most: 16_000, countIds: 50_000 };

export interface MatchRow {
  id: number;
  date: string;
  occasions_id: string;
}

/** A position in the log's order (date desc, id desc); a read starts below it, or at it when `inclusive`. */
export interface Position {
  date: string;
  id: number;
  inclusive?: boolean;
}

const eb = expressionBuilder<Database, 'history_events'>();

/** Up to `limit` rows matching `cond`, newest first, below `after` (or from it, when inclusive). */
export async function newestFirst(app: AppServices, cond: Expression<SqlBool>, after: Position | null, limit: number, slices: Slices = SLICES): Promise<MatchRow[]> {
  const read = (where: Expression<SqlBool>, from: Position | null, n: number) => {
    let q = app.db.selectFrom('history_events').select(['id', 'date', 'occasions_id']).where(where);
    if (from) q = q.where(pos(from.inclusive ? '<=' : '<', from));
    return q.orderBy('date', 'desc').orderBy('id', 'desc').limit(n);
  };
  const whole = read(cond, after, limit);
  if (app.dialect !== 'sqlite' || (await accessOf(app, whole)) !== 'date index') return whole.execute();
  const rows: MatchRow[] = [];
  let from = after;
  for (let size = slices.first; ; size = Math.min(4 * size, slices.most)) {
    const last = await nthRow(app, from, size);
    rows.push(...(await read(last ? eb.and([cond, pos('>=', last)]) : cond, from, limit - rows.length).execute()));
    if (rows.length >= limit || !last) return rows;
    from = { date: last.date, id: last.id };
    await nextTurn();
  }
}

/** The `n`-th row of the log from `from` on (any row, matching or not), or undefined when fewer are left. */
async function nthRow(app: AppServices, from: Position | null, n: number): Promise<Position | undefined> {
  let q = app.db.selectFrom('history_events').select(['date', 'id']);
  if (from) q = q.where(pos(from.inclusive ? '<=' : '<', from));
  return q.orderBy('date', 'desc').orderBy('id', 'desc').limit(1).offset(n - 1).executeTakeFirst();
}

/** Rows matching `cond`. */
export async function countRows(app: AppServices, cond: Expression<SqlBool>, slices: Slices = SLICES): Promise<number> {
  const count = (where: Expression<SqlBool>) => app.db.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).where(where);
  const whole = count(cond);
  if (app.dialect !== 'sqlite' || (await accessOf(app, whole)) !== 'table scan') return Number((await whole.executeTakeFirstOrThrow()).n);
  const newest = await app.db.selectFrom('history_events').select(sql<number | null>`max(id)`.as('id')).executeTakeFirstOrThrow();
  let n = 0;
  // Bare `id` bounds: SQLite reads just that range of the table.
  for (let below = Number(newest.id ?? 0); below > 0; below -= slices.countIds) {
    const range = eb.and([cond, eb('id', '>', below - slices.countIds), eb('id', '<=', below)]);
    n += Number((await count(range).executeTakeFirstOrThrow()).n);
    if (below > slices.countIds) await nextTurn();
  }
  return n;
}

type Access = 'date index' | 'table scan' | 'other';
const ACCESS_CACHE_LIMIT = 500;
const accessByStatement = new Map<string, Access>();

/** How SQLite reaches the log's rows for this statement (its plan's line for history_events itself). */
async function accessOf(app: AppServices, query: Compilable): Promise<Access> {
  const { sql: text, parameters } = query.compile();
  let access = accessByStatement.get(text);
  if (access === undefined) {
    const { rows } = await app.db.executeQuery<{ detail: string }>(CompiledQuery.raw(`explain query plan ${text}`, [...parameters]));
    access = accessFromPlan(rows.map((r) => r.detail));
    if (accessByStatement.size >= ACCESS_CACHE_LIMIT) accessByStatement.clear();
    accessByStatement.set(text, access);
  }
  return access;
}

/** Sub-queries name their tables by alias (`x`, `n`), so the line of history_events is the outer read. */
export function accessFromPlan(details: string[]): Access {
  const outer = details.find((d) => /^(SCAN|SEARCH) history_events\b/.test(d));
  if (!outer) return 'other';
  if (/^(SCAN|SEARCH) history_events USING INDEX history_events_date\b/.test(outer)) return 'date index';
  return outer === 'SCAN history_events' ? 'table scan' : 'other';
}
