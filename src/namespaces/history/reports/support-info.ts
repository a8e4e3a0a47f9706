// GET /support-info and /support-info/health-check: what a support request needs to know
// about this installation, as data and as plain text.
import os from 'node:os';
import { sql } from 'kysely';
import type { AppServices } from '../../../site/services.ts';
import { utcNow, utcToZone } from '../../../site/time.ts';
import { BACKFILL_DAYS } from '../write/backfill.ts';
import { COUNTER_INDEXED_BLOCKS } from '../index/build.ts';
import { COUNTER_TOTAL, readCounter } from '../model/counters.ts';
import { BLOCK_EVENTS } from '../index/terms.ts';

const VERSION = '0.1.0';
const TABLES = ['history_events', 'history_event_contexts', 'history_context_terms'] as const;

export function healthCheck(app: AppServices) {
  return { status: 'ok', timestamp: utcToZone(utcNow(), app.options.get('timezone_string')) };
}

async function databaseVersion(app: AppServices): Promise<string> {
  if (app.dialect === 'sqlite') {
    const row = await sql<{ v: string }>`select sqlite_version() as v`.execute(app.db);
    return `SQLite ${row.rows[0]?.v ?? ''}`.trim();
  }
  const row = await sql<{ v: string }>`show server_version`.execute(app.db);
  const first = row.rows[0] as Record<string, string> | undefined;
  return `PostgreSQL ${first ? Object.values(first)[0] : ''}`.trim();
}

/** Bytes used by one table (with its indexes), or null when the engine cannot say. */
async function tableBytes(app: AppServices, table: string): Promise<number | null> {
  try {
    if (app.dialect === 'postgres') {
      const r = await sql<{ n: number }>`select pg_total_relation_size(to_regclass(${table})) as n`.execute(app.db);
      return Number(r.rows[0]?.n ?? 0);
    }
    const r = await sql<{
      n: number;
    }>`select sum(pgsize) as n from dbstat where name = ${table} or tbl_name = ${table}`.execute(app.db);
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return null;
  }
}

async function databaseBytes(app: AppServices): Promise<number | null> {
  try {
    if (app.dialect === 'postgres') {
      const r = await sql<{ n: number }>`select pg_database_size(current_database()) as n`.execute(app.db);
      return Number(r.rows[0]?.n ?? 0);
    }
    const r = await sql<{
      n: number;
    }>`select page_count * page_size as n from pragma_page_count(), pragma_page_size()`.execute(app.db);
    return Number(r.rows[0]?.n ?? 0);
  } catch {
    return null;
  }
}

const mb = (bytes: number | null) => (bytes === null ? null : Math.round((bytes / 1048576) * 100) / 100);

export async function supportInfo(
  app: AppServices,
  userAgent: string,
): Promise<{ info: SupportInfoData; plain_text: string }> {
  const zone = app.options.get('timezone_string');
  const tableStats: Record<string, { table_name: string; size_in_mb: number | null; num_rows: number }> = {};
  for (const table of TABLES) {
    const row = await app.db.selectFrom(table).select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow();
    tableStats[table] = { table_name: table, size_in_mb: mb(await tableBytes(app, table)), num_rows: Number(row.n) };
  }
  // The fields of the original's event row, under our names (not our own bookkeeping columns).
  const oldest = await app.db
    .selectFrom('history_events')
    .select(['id', 'date', 'logger', 'level', 'message', 'occasions_id', 'initiator'])
    .orderBy('date', 'asc')
    .orderBy('id', 'asc')
    .limit(1)
    .executeTakeFirst();
  const perLogger = await app.db
    .selectFrom('history_events')
    .select(['logger', sql<number>`count(*)`.as('n')])
    .groupBy('logger')
    .execute();
  const counts = new Map(perLogger.map((r) => [r.logger, Number(r.n)]));
  const slugs = new Set([...app.loggers.sorted.map((d) => d.slug), ...counts.keys()]);
  const loggers = [...slugs]
    .map((slug) => ({ slug, count: counts.get(slug) ?? 0 }))
    .sort((a, b) => b.count - a.count || (a.slug < b.slug ? -1 : 1));
  const memory = process.memoryUsage();
  const warnings: string[] = [];
  if (os.freemem() < 256 * 1048576) warnings.push('Less than 256 MB of free system memory.');

  const info: SupportInfoData = {
    cms: {
      version: VERSION,
      multisite: 'No',
      locale: 'en_US, de_DE',
      timezone: zone,
      site_url: app.config.siteUrl,
      https: app.config.siteUrl.startsWith('https:') ? 'Yes' : 'No',
      log_level: app.log.level,
    },
    server: {
      node_version: process.version,
      platform: `${os.type()} ${os.release()} (${process.arch})`,
      database: await databaseVersion(app),
      database_location: app.dbHandle.location,
      database_size_in_mb: mb(await databaseBytes(app)),
      memory_rss_in_mb: mb(memory.rss),
      heap_used_in_mb: mb(memory.heapUsed),
      cpus: os.cpus().length,
      uptime_seconds: Math.round(process.uptime()),
    },
    history: {
      version: VERSION,
      premium: 'Not active',
      total_events: await readCounter(app.db, COUNTER_TOTAL),
      table_stats: tableStats,
      oldest_event: oldest ?? false,
      db_engine: app.dialect,
      retention_days: 'Forever (no auto-cleanup)',
      items_per_page: 20,
      // How far the background indexer of context_filters has come (events up to this id).
      context_index_through_id: Math.max(0, (await readCounter(app.db, COUNTER_INDEXED_BLOCKS)) * BLOCK_EVENTS - 1),
      backfill_days: BACKFILL_DAYS,
    },
    warnings,
    // The original's keys, so that its clients find them: the site has no themes, plugins,
    // must-use plugins or drop-ins of its own.
    theme: { name: '', version: '', author: '', child_theme: 'No' },
    plugins: [],
    mu_plugins: [],
    dropins: [],
    loggers,
    browser: { user_agent: userAgent },
  };
  return { info, plain_text: supportText(info) };
}

/** `info` in the original's shape under our names: `wordpress` is `cms`, `simple_history` is `history`. */
interface SupportInfoData {
  cms: Record<string, unknown>;
  server: Record<string, unknown>;
  history: Record<string, unknown> & {
    table_stats: Record<string, { table_name: string; size_in_mb: number | null; num_rows: number }>;
  };
  warnings: string[];
  theme: { name: string; version: string; author: string; child_theme: string };
  plugins: { name: string; version: string }[];
  mu_plugins: { name: string; version: string }[];
  dropins: { file: string; name: string }[];
  loggers: { slug: string; count: number }[];
  browser: { user_agent: string };
}

function supportText(info: SupportInfoData): string {
  const lines: string[] = ['=== History Support Info ===', `Generated: ${utcNow()} UTC`, ''];
  if (info.warnings.length) lines.push('=== ⚠ Warnings ===', ...info.warnings.map((w) => `- ${w}`), '');
  const section = (title: string, values: Record<string, unknown>) => {
    lines.push(`=== ${title} ===`);
    for (const [k, v] of Object.entries(values)) {
      if (v !== null && typeof v === 'object') continue;
      lines.push(`${k.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase())}: ${v ?? 'Unknown'}`);
    }
    lines.push('');
  };
  section('CMS', info.cms);
  section('Server', info.server);
  section('Theme', info.theme);
  section('History', info.history);
  lines.push('=== Database Tables ===');
  for (const t of Object.values(info.history.table_stats))
    lines.push(`- ${t.table_name}: ${t.num_rows} rows, ${t.size_in_mb ?? '?'} MB`);
  for (const [title, list] of [
    ['Active Plugins', info.plugins],
    ['Must-Use Plugins', info.mu_plugins],
    ['Drop-ins', info.dropins],
  ] as const) {
    lines.push('', `=== ${title} (${list.length}) ===`);
    for (const item of list) lines.push(`- ${item.name}${'version' in item ? ` ${item.version}` : ''}`);
  }
  lines.push('', `=== Loggers (${info.loggers.length}) ===`);
  for (const l of info.loggers) lines.push(`- ${l.slug}: ${l.count}`);
  lines.push('', '=== Browser ===', `User agent: ${info.browser.user_agent}`);
  return lines.join('\n');
}
