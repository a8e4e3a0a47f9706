// Removing events from the activity log: `content-site events purge [--generated] [--before
// DATE]`, and "clear log" (the original plugin's Clear log) from `content-site events clear` and
// the console's activity-log page. Each removal is itself logged, as one event.
//
// Generated events (the generator's, the demo content's) carry the context key `_generated`:
// a context key rather than an initiator, because the initiators are the contract's five and the
// generated events imitate all of them; and a `_` key, as the original's own internal keys
// (`_occasionsID`, `_sticky`), which the event details still show.
import { sql, type SqlBool } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import type { DialectName } from '../../../db/index.ts';
import { likeContains } from '../../../db/like.ts';
import { loggerEntry, type ActivityOrigin } from '../../../site/activity.ts';
import { removingEvents } from '../index/fts.ts';
import { clearContextIndex } from '../index/build.ts';
import { GENERATED_KEY } from '../bulk/scenarios.ts';
import { historyLogger } from '../loggers/history.ts';
import { COUNTER_RUN_HEADS } from '../model/runs.ts';
import { lockRuns, rebuildRuns } from './runs.ts';
import { contextPairs } from '../model/context.ts';
import {
  addToCounter,
  COUNTER_CHANGES,
  COUNTER_CONSECUTIVE_FAILED_LOGINS,
  COUNTER_SUPPRESSED_FAILED_LOGINS,
  COUNTER_TOTAL,
} from '../model/counters.ts';

/** The event (a row of history_events) was generated: its context has GENERATED_KEY. */
function generated(dialect: DialectName) {
  // The LIKE spares parsing the contexts that cannot have the key.
  return sql<SqlBool>`exists (select 1 from history_event_contexts as x where x.event_id = ${sql.ref('history_events.id')}
    and ${likeContains(dialect, sql`x.context`, `"${GENERATED_KEY}"`)}
    and exists (select 1 from ${contextPairs(dialect, 'x.context')} as c where c.key = ${GENERATED_KEY}))`;
}

/**
 * Events of real activity: not generated, and made by a person (a logged-in user or a visitor).
 * What the site's first start and the command line record (initiators `cms`, `cms_cli`) is
 * setting the site up, so a new site with its demo content and users still takes generated events.
 */
export async function countRealActivity(app: AppServices): Promise<number> {
  const row = await app.db
    .selectFrom('history_events')
    .select(sql<number>`count(*)`.as('n'))
    .where('initiator', 'in', ['cms_user', 'web_user'])
    .where((eb) => eb.not(generated(app.dialect)))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export interface PurgeFilter {
  /** Only generated events. */
  generated?: boolean;
  /** Only events dated before this UTC time (`YYYY-MM-DD HH:MM:SS`). */
  before?: string;
}

/**
 * Removes the events that match (every event for an empty filter) with their contexts, in one
 * transaction that holds the writers' run lock; returns how many. The log's counters follow;
 * the occasions (runs) are rebuilt over what is left, and the context index starts over when
 * nothing is left (otherwise its entries of removed events only find nothing).
 */
export async function purgeEvents(app: AppServices, filter: PurgeFilter): Promise<number> {
  const { dialect } = app;
  const { removed, left } = await app.db.transaction().execute(async (tx) => {
    await lockRuns(tx, dialect);
    let events = tx.deleteFrom('history_events');
    if (filter.generated) events = events.where(generated(dialect));
    if (filter.before) events = events.where('date', '<', filter.before);
    const remove = async () => {
      const removed = Number((await events.executeTakeFirst()).numDeletedRows);
      // Then their contexts (the test above needed them); an event without context has no row.
      if (removed)
        await tx
          .deleteFrom('history_event_contexts')
          .where((eb) =>
            eb.not(
              eb.exists(
                eb
                  .selectFrom('history_events')
                  .select('id')
                  .whereRef('history_events.id', '=', 'history_event_contexts.event_id'),
              ),
            ),
          )
          .execute();
      return removed;
    };
    // SQLite's search indexes start over rather than deleting entry by entry (index/fts.ts).
    const removed = dialect === 'sqlite' ? await removingEvents(tx, remove) : await remove();
    const left = Number(
      (await tx.selectFrom('history_events').select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow()).n,
    );
    if (left === 0) {
      await tx
        .deleteFrom('history_counters')
        .where('name', 'in', [
          COUNTER_TOTAL,
          COUNTER_RUN_HEADS,
          COUNTER_CONSECUTIVE_FAILED_LOGINS,
          COUNTER_SUPPRESSED_FAILED_LOGINS,
        ])
        .execute();
    } else if (removed) {
      await addToCounter(tx, COUNTER_TOTAL, -removed);
    }
    if (removed) await addToCounter(tx, COUNTER_CHANGES, 1);
    return { removed, left };
  });
  if (removed && left === 0) await clearContextIndex(app.db, dialect);
  else if (removed) await rebuildRuns(app.db);
  return removed;
}

/**
 * Removes the events that match and logs that as one event: `cleared_log` (the original's
 * message) for every event, else ours, `purged_generated_events` or `purged_events_before`.
 */
export async function purgeAndLog(app: AppServices, filter: PurgeFilter, origin: ActivityOrigin): Promise<number> {
  const removed = await purgeEvents(app, filter);
  const entry =
    !filter.generated && !filter.before
      ? loggerEntry(historyLogger, 'cleared_log', { num_rows_deleted: removed })
      : filter.generated
        ? loggerEntry(historyLogger, 'purged_generated_events', {
            num_rows: removed,
            ...(filter.before ? { before_date: filter.before } : {}),
          })
        : loggerEntry(historyLogger, 'purged_events_before', { num_rows: removed, before_date: filter.before });
  await app.activity.log(entry, origin);
  return removed;
}
