// Export of the activity log's filtered view as CSV or JSON, streamed: any number of events
// leaves the server in pieces, read through the REST API as the signed-in user (so only what
// they may see). The events are read ungrouped in windows of ids, newest id first, each
// window paged with small offsets (a deep offset over the whole log would cost more and more
// per page); a window grows while few events match and shrinks when many do. The view is
// frozen at the newest id when the export starts. `X-Export-Total` tells the browser how
// many events to expect, for its progress bar.
import { Readable } from 'node:stream';
import type { ConsoleContext } from '../context.ts';
import type { ApiEvent } from './view.ts';

export type ExportFormat = 'csv' | 'json';

const PAGE = 100;
const FIRST_WINDOW = 1000;

const CSV_COLUMNS = [
  'id',
  'date_gmt',
  'date_local',
  'logger',
  'loglevel',
  'message_key',
  'message',
  'initiator',
  'user_id',
  'user_login',
  'user_email',
  'user_display_name',
  'ip_addresses',
  'occasions_id',
  'sticky',
  'context',
] as const;

/** One CSV field: quoted when needed; a leading = + - @ is defused so spreadsheets do not run it as a formula. */
export function csvField(value: unknown): string {
  let s =
    value === null || value === undefined ? '' : typeof value === 'object' ? JSON.stringify(value) : String(value);
  if (/^[=+\-@\t\r]/.test(s)) s = `'${s}`;
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function csvRow(e: ApiEvent & { date_local?: string }): string {
  const d = e.initiator_data;
  const values: Record<(typeof CSV_COLUMNS)[number], unknown> = {
    id: e.id,
    date_gmt: e.date_gmt,
    date_local: e.date_local ?? '',
    logger: e.logger,
    loglevel: e.loglevel,
    message_key: e.message_key,
    message: e.message,
    initiator: e.initiator,
    user_id: d.user_id,
    user_login: d.user_login,
    user_email: d.user_email,
    user_display_name: d.user_display_name,
    ip_addresses: Object.values(e.ip_addresses ?? {}).join(' '),
    occasions_id: e.occasions_id,
    sticky: e.sticky ? 1 : 0,
    context: e.context,
  };
  return CSV_COLUMNS.map((c) => csvField(values[c])).join(',') + '\r\n';
}

async function newestId(ctx: ConsoleContext): Promise<number> {
  const row = await ctx.app.db
    .selectFrom('history_events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

class ExportError extends Error {}

async function eventsPage(
  ctx: ConsoleContext,
  args: Record<string, unknown>,
): Promise<{ events: ApiEvent[]; headers: Record<string, string> }> {
  const out = await ctx.api('GET', '/history/v1/events', args);
  if (out.status !== 200)
    throw new ExportError(String((out.body as { message?: string } | undefined)?.message ?? out.status));
  return { events: out.body as ApiEvent[], headers: out.headers };
}

/** The filtered view's events, newest id first, window by window. */
async function* windows(
  ctx: ConsoleContext,
  filters: Record<string, unknown>,
  top: number,
): AsyncGenerator<ApiEvent[]> {
  const base = { ...filters, ungrouped: true, per_page: PAGE, skip_count_query: true };
  let window = FIRST_WINDOW;
  for (let hi = top; hi > 0; ) {
    const lo = Math.max(0, hi - window);
    const rows: ApiEvent[] = [];
    let pages = 0;
    for (let page = 1; ; page++) {
      const { events } = await eventsPage(ctx, { ...base, max_id_first_page: hi, since_id: lo, page });
      pages++;
      rows.push(...events);
      if (events.length < PAGE) break;
    }
    rows.sort((a, b) => b.id - a.id);
    if (rows.length) yield rows;
    window =
      pages <= 1 ? Math.min(window * 4, 10_000_000) : pages > 5 ? Math.max(PAGE, Math.floor(window / 2)) : window;
    hi = lo;
  }
}

/**
 * Starts the export: checks the filters (a 4xx of the API comes back as such, before any byte
 * is sent) and counts the events; returns the stream of the file.
 */
export async function startExport(
  ctx: ConsoleContext,
  filters: Record<string, unknown>,
  format: ExportFormat,
): Promise<{ status: number; error?: string; total?: number; stream?: Readable }> {
  const top = await newestId(ctx);
  const first = await ctx.api('GET', '/history/v1/events', {
    ...filters,
    ungrouped: true,
    per_page: 1,
    max_id_first_page: Math.max(top, 1),
  });
  if (first.status !== 200)
    return { status: first.status, error: String((first.body as { message?: string }).message ?? '') };
  const total = Number(first.headers['X-WP-Total'] ?? 0);
  async function* file(): AsyncGenerator<string> {
    if (format === 'csv') yield '\ufeff' + CSV_COLUMNS.join(',') + '\r\n';
    else yield '[\n';
    let n = 0;
    for await (const rows of windows(ctx, filters, top)) {
      if (format === 'csv') yield rows.map(csvRow).join('');
      // One event per line: JSON escapes line breaks inside strings, so a reader can count lines.
      else yield rows.map((e) => `${n++ === 0 ? '' : ',\n'}${JSON.stringify(e)}`).join('');
    }
    if (format === 'json') yield '\n]\n';
  }
  return { status: 200, total, stream: Readable.from(file()) };
}
