// The thread that reads a large log into its columns (columns/build-thread.ts starts it): one
// statement over its own connection, rows in the log's order up to the newest id when the build
// started, appended as the serving thread would append them (LogColumns.appendRow). Its typed
// arrays are then transferred to the serving thread, not copied.
import { parentPort, workerData } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { copyOut } from '../../../db/pg-copy-out.ts';
import { ColumnsUnfit, LogColumns, ROW_COLUMNS, type ColumnRow } from './store.ts';
import { READ_REPORTED, type BuildOrder, type BuildReport } from './build-thread.ts';

const order = workerData as BuildOrder;
const report = (message: BuildReport) => parentPort!.postMessage(message);

function selectUpTo(maxId: number): string {
  if (!Number.isSafeInteger(maxId)) throw new Error(`not an event id: ${maxId}`);
  return `select ${ROW_COLUMNS.join(', ')} from history_events where id <= ${maxId} order by date, id`;
}

/** Calls `row` with each row up to the order's id, in the log's order. */
async function eachRow(row: (r: ColumnRow) => void): Promise<void> {
  const query = selectUpTo(order.maxId);
  if ('sqliteFile' in order.source) {
    const db = new SqliteDatabase(order.source.sqliteFile, { readonly: true, fileMustExist: true });
    try {
      for (const r of db.prepare(query).iterate()) row(r as ColumnRow);
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client(order.source.pg);
  await client.connect();
  // One object carries every row (the columns keep none).
  const carrier: Record<string, string | number | null> = {};
  try {
    await copyOut(client, query, (fields) => {
      ROW_COLUMNS.forEach((name, k) => (carrier[name] = fields[k]!));
      carrier.id = Number(carrier.id);
      if (carrier.user_id !== null) carrier.user_id = Number(carrier.user_id);
      row(carrier as unknown as ColumnRow);
    });
  } finally {
    await client.end();
  }
}

try {
  const cols = new LogColumns({ maxRows: order.maxRows });
  cols.reserve(order.total);
  await eachRow((row) => {
    cols.appendRow(row);
    if (cols.length % READ_REPORTED === 0) report({ read: cols.length });
  });
  report({ parts: cols.parts() });
} catch (err) {
  report(
    err instanceof ColumnsUnfit
      ? { unfit: err.message }
      : {
          failed: err instanceof Error ? `${err.message}${'code' in err ? ` (${String(err.code)})` : ''}` : String(err),
        },
  );
}
