// GET /stats/media: the media summary and, with details, every media event of the range whole
// (by contract without a limit: a year of a busy site is tens of thousands of events). The
// details are read a slice at a time and sent as they are read (rest/json-list.ts).
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import { JsonList, ListedBody } from '../../../rest/json-list.ts';
import { countsByMessage, dateRangeInfo, statsRange, type StatsRange } from './range.ts';
import { M, mediaSummary } from './summary.ts';
import type { StatsParams } from '../args/stats.ts';
import { newestFirstSlices } from '../read/newest-slices.ts';
import { posAndDate, type Pos } from '../model/runs.ts';

/**
 * Events read per statement of a list (about 330 KB of JSON). Each answer in flight holds a
 * slice several times over (the rows in a read worker, their copy here, their texts): eight
 * year-long lists at once (27 MB each, 1,000,000 events, SQLite) took the server's peak RSS to
 * 284–287 MB at 2,000 a slice, 256 at 1,000, 235–241 at 500, for 5.4–5.6, 6.1 and 6.5–7.2 s.
 */
export const SLICE_EVENTS = 500;

interface MediaEventRow {
  id: number;
  date: string;
  logger: string;
  level: string;
  message: string;
  occasions_id: string;
  initiator: string;
  context: string | null;
}

/** An event of the details as JSON text: the event's columns and its stored context. */
function eventText(row: MediaEventRow): string {
  return JSON.stringify({
    id: row.id,
    date: row.date,
    logger: row.logger,
    level: row.level,
    message: row.message,
    occasionsID: row.occasions_id,
    initiator: row.initiator,
    context: row.context === null ? {} : JSON.parse(row.context),
  });
}

/**
 * The media events of one message key in the range, newest first (date, then id), as JSON texts,
 * `size` events a statement, in the order of the (logger, message key, date, id) index, which
 * SQLite is told to use (it took the logger's index by date instead for a rare key).
 */
export async function* mediaEventSlices(
  app: AppServices,
  r: StatsRange,
  key: string,
  size = SLICE_EVENTS,
): AsyncGenerator<string[]> {
  const byKey = app.dialect === 'sqlite' ? sql`indexed by history_events_message_key` : sql``;
  const read = async (below: Pos | undefined, most: number) => {
    const { rows } = await sql<MediaEventRow>`
      select e.id, e.date, e.logger, e.level, e.message, e.occasions_id, e.initiator, x.context as context
      from history_events as e ${byKey}
      left join history_event_contexts as x on x.event_id = e.id
      where e.logger = ${M} and e.message_key = ${key} and e.date >= ${r.fromUtc} and e.date <= ${r.toUtc}
      ${below ? sql`and ${posAndDate('<', below)}` : sql``}
      order by e.date desc, e.id desc limit ${most}`.execute(app.readDb);
    return rows;
  };
  for await (const rows of newestFirstSlices(read, size)) yield rows.map(eventText);
}

export async function statsMedia(app: AppServices, params: StatsParams): Promise<Record<string, unknown> | ListedBody> {
  const r = statsRange(app, params);
  const out: Record<string, unknown> = {
    date_range: dateRangeInfo(app, r),
    summary: mediaSummary(await countsByMessage(app, r)),
  };
  if (!params.include_details) return out;
  const list = (key: string) => new JsonList(() => mediaEventSlices(app, r, key));
  out.details = {
    uploads: list('attachment_created'),
    edits: list('attachment_updated'),
    deletions: list('attachment_deleted'),
  };
  return new ListedBody(out);
}
