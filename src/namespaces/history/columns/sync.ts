// Keeping the log's columns (columns/store.ts) at the log's state. A count asks for them at the
// state its request read (read/caches.ts logState): events appended since are read and added
// (as the cached totals add them); anything else — a purge, an event dated before the newest, a
// late insert — makes them be read again (a stick changes none of their columns). A small log is
// read at once; a large one in the background by a thread of its own while the counts read the
// rows as before, and the server says in its log how far it is. Each process keeps its own, so on
// PostgreSQL several processes may share the log.
import type { AppServices } from '../../../site/services.ts';
import type { BackgroundWork, WarmUp } from '../../../site/module.ts';
import { posAndDate } from '../model/runs.ts';
import { appendedSince, logState, sameState, type LogState } from '../read/caches.ts';
import { ColumnsUnfit, LogColumns, ROW_COLUMNS, type ColumnRow, type ColumnsView } from './store.ts';
import { MAX_COLUMN_ROWS } from './bound.ts';
import { readInThread, threadSource, type BuildOrder, type ColumnsThread } from './build-thread.ts';
import { WalkThread, walkHere, type Walker } from './walk-thread.ts';

/**
 * Rows read per statement while building here (a small log): few, so that few are in flight
 * and each statement's rows die young (when a million events were read so: the server's RSS
 * after it 299 MB reading 50,000 at a time, 233 MB at 5,000; with a young generation of 4 MB
 * the build took 4.8–7.4 s at 5,000 and 3.5–4.6 s at this, most of it the collector's).
 */
const BUILD_CHUNK = 1_000;
/** Logs up to which a request builds the columns itself rather than in the background. */
const BUILD_INLINE_ROWS = 50_000;
/**
 * Earlier states kept: requests read the log's state before their count, so under writes one
 * may ask for the columns at a state they have moved past; without it, the columns were read
 * afresh (4 s a million events).
 */
const EARLIER_STATES = 16;

interface Holder {
  columns: LogColumns | null;
  /** A build under way. */
  building: Promise<void> | null;
  /** Its thread, when it has one. */
  thread: ColumnsThread | null;
  /**
   * The log's changes counter when the columns could not hold it (too many events, a value
   * beyond them): not tried again until something other than an append changes the log.
   */
  unfitAt: number | null;
  /** One catch-up at a time. */
  catchingUp: Promise<unknown>;
  /** When a build last failed (a database error): none is started again for a while. */
  failedAt: number;
  /** The thread walking large views of the columns, once one was walked. */
  walks: WalkThread | null;
  stopped: boolean;
}

const holders = new WeakMap<AppServices, Holder>();

function holderOf(app: AppServices): Holder {
  let h = holders.get(app);
  if (!h) {
    h = {
      columns: null,
      building: null,
      thread: null,
      unfitAt: null,
      catchingUp: Promise.resolve(),
      failedAt: 0,
      walks: null,
      stopped: false,
    };
    holders.set(app, h);
  }
  return h;
}

/**
 * The columns at `state`, or null while they are being built or cannot be (the log is too
 * large, holds values beyond them, or reading them failed); the caller then reads the log.
 */
export async function columnsAt(app: AppServices, state: LogState): Promise<ColumnsView | null> {
  const h = holderOf(app);
  if (h.stopped || h.unfitAt === state.changes) return null;
  try {
    const view = await caughtUp(app, h, state);
    if (view) return view;
    if (state.total > MAX_COLUMN_ROWS) {
      h.unfitAt = state.changes;
      return null;
    }
    const building = build(app, h);
    if (state.total > BUILD_INLINE_ROWS) return null;
    await building;
    return await caughtUp(app, h, state);
  } catch (err) {
    app.log.warn({ err }, 'log columns: not brought up to date (this count reads the rows)');
    return null;
  }
}

/** The columns at `state` once the events appended since are added (one catch-up at a time). */
function caughtUp(app: AppServices, h: Holder, state: LogState): Promise<ColumnsView | null> {
  const next = h.catchingUp.then(() => catchUp(app, h, state));
  h.catchingUp = next.catch(() => undefined);
  return next;
}

/** The log's state as the columns see it: sticking an event changes none of their columns. */
const ofColumns = (state: LogState): LogState => ({ ...state, sticks: 0 });

async function catchUp(app: AppServices, h: Holder, at: LogState): Promise<ColumnsView | null> {
  const state = ofColumns(at);
  const cols = h.columns;
  if (!cols) return null;
  if (sameState(cols.state, state)) return { cols, length: cols.length };
  // A request that read the log before another brought the columns further: the rows it saw.
  const earlier = cols.earlier.find((e) => sameState(e.state, state));
  if (earlier) return { cols, length: earlier.length };
  const added = appendedSince(cols.state, state);
  if (added === null) return null;
  const rows = await app.readDb
    .selectFrom('history_events')
    .select(ROW_COLUMNS)
    .where('id', '>', cols.state.maxId)
    .where('id', '<=', state.maxId)
    .orderBy('date')
    .orderBy('id')
    .execute();
  // Every insert accounted for, each after the newest row held.
  if (rows.length !== added || !cols.follows(rows[0]!)) return null;
  const before = { state: cols.state, length: cols.length };
  try {
    cols.append(rows);
  } catch (err) {
    if (!(err instanceof ColumnsUnfit)) throw err;
    h.columns = null;
    return null;
  }
  cols.earlier.push(before);
  if (cols.earlier.length > EARLIER_STATES) cols.earlier.shift();
  cols.state = state;
  return { cols, length: cols.length };
}

/**
 * Reads the columns afresh up to the newest id when it starts: a large log in a thread of its
 * own (columns/build-thread.ts), a small one (or one only this thread can read) here, in chunks
 * in the log's order.
 */
async function buildColumns(app: AppServices, h: Holder): Promise<void> {
  let state: LogState = { maxId: 0, total: 0, changes: -1, sticks: 0 };
  const started = performance.now();
  try {
    state = ofColumns(await logState(app));
    const source = state.total > BUILD_INLINE_ROWS ? threadSource(app.dbHandle) : null;
    const cols = source ? await readInOwnThread(app, h, source, state) : await readHere(app, h, state);
    if (!cols) return;
    cols.state = state;
    h.columns = cols;
    if (state.total > BUILD_INLINE_ROWS)
      app.log.info(
        { events: cols.length, mb: Math.round(cols.bytes / 2 ** 20), ms: Math.round(performance.now() - started) },
        'log columns: ready',
      );
  } catch (err) {
    if (err instanceof ColumnsUnfit) {
      app.log.info({ reason: err.message }, 'log columns: not kept (lists count the rows instead)');
      h.unfitAt = state.changes;
    } else {
      h.failedAt = Date.now();
      app.log.warn({ err }, 'log columns: reading the log failed (lists count the rows until they are read again)');
    }
    h.columns = null;
  }
}

const PROGRESS_EVERY_MS = 5_000;

/** Says in the server's log how far a build is, every few seconds (it hears of every chunk read). */
function saysHowFar(app: AppServices, of: number): (read: number) => void {
  let said = Date.now();
  return (read) => {
    if (Date.now() - said < PROGRESS_EVERY_MS) return;
    said = Date.now();
    app.log.info({ read, of }, 'log columns: reading the log');
  };
}

/** The columns read by a thread of their own (null once the server stops). */
async function readInOwnThread(
  app: AppServices,
  h: Holder,
  source: BuildOrder['source'],
  state: LogState,
): Promise<LogColumns | null> {
  const order = { source, maxId: state.maxId, total: state.total, maxRows: MAX_COLUMN_ROWS };
  const thread = (h.thread = readInThread(order, saysHowFar(app, state.total)));
  try {
    return await thread.columns;
  } catch (err) {
    if (h.stopped) return null;
    throw err;
  } finally {
    h.thread = null;
  }
}

/** The columns read here, in chunks in the log's order (null once the server stops). */
async function readHere(app: AppServices, h: Holder, state: LogState): Promise<LogColumns | null> {
  const cols = new LogColumns();
  const progress = saysHowFar(app, state.total);
  cols.reserve(state.total);
  for (let after: ColumnRow | undefined; !h.stopped; ) {
    let q = app.readDb.selectFrom('history_events').select(ROW_COLUMNS).where('id', '<=', state.maxId);
    if (after) q = q.where(posAndDate('>', after));
    const rows = await q.orderBy('date').orderBy('id').limit(BUILD_CHUNK).execute();
    cols.append(rows);
    if (rows.length < BUILD_CHUNK) return cols;
    after = rows.at(-1);
    progress(cols.length);
  }
  return null;
}

/** A build failed this recently: the next waits. */
const RETRY_AFTER_MS = 60_000;

/** The build under way, or a new one (it never fails: a failure is logged, and the columns stay unread). */
function build(app: AppServices, h: Holder): Promise<void> {
  if (!h.building && Date.now() - h.failedAt < RETRY_AFTER_MS) return Promise.resolve();
  return (h.building ??= buildColumns(app, h).finally(() => (h.building = null)));
}

/**
 * Background work: the columns are read when the server starts, not on its first count; the
 * server is ready once they are (or cannot be), as lists are slower until then.
 */
export function startLogColumns(app: AppServices): BackgroundWork & { warmUp: WarmUp } {
  const h = holderOf(app);
  const started = (async () => {
    const state = await logState(app);
    if (state.total === 0 || state.total > MAX_COLUMN_ROWS) return;
    await build(app, h);
  })().catch((err: unknown) => app.log.warn({ err }, 'log columns: reading the log failed (lists count the rows)'));
  return {
    stop: async () => {
      h.stopped = true;
      await h.thread?.stop();
      await h.walks?.stop();
      await started;
    },
    warmUp: { what: 'log columns', done: started },
  };
}

/** Views of fewer rows are walked on the serving thread: sending the walk costs more than it takes. */
const WALKED_HERE_ROWS = 50_000;

/** What walks `view`: the walk thread for a large one (while the server runs), else the serving thread. */
export function columnsWalker(app: AppServices, view: ColumnsView): Walker {
  const h = holderOf(app);
  if (view.length < WALKED_HERE_ROWS || h.stopped) return walkHere;
  h.walks ??= new WalkThread((err) => app.log.warn({ err }, 'log columns: the walk thread failed (walks run here)'));
  return h.walks.walk;
}

/**
 * Whether the columns are read and keep the log's search texts (columns/texts.ts): a search
 * they can test is then served by them (they may yet be read afresh before it is).
 */
export function columnsKeepTexts(app: AppServices): boolean {
  return !!holderOf(app).columns?.searchTexts.values;
}
