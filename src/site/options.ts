// Site options (name, description, timezone, front page…) stored in the `options` table,
// cached in memory. With several processes on one PostgreSQL, a NOTIFY on change tells
// every process to reload, so no process serves stale options.
import type { Kysely } from 'kysely';
import type pg from 'pg';
import type { Database } from '../db/schema.ts';
import { isValidTimeZone, utcNow } from './time.ts';

export interface SiteOptionValues {
  blogname: string;
  blogdescription: string;
  timezone_string: string;
  page_for_posts: number;
  page_on_front: number;
  show_on_front: 'posts' | 'page';
  [name: string]: unknown;
}

export const DEFAULT_OPTIONS: SiteOptionValues = {
  blogname: 'Content Site',
  blogdescription: 'Partner portal',
  timezone_string: 'Europe/Berlin',
  page_for_posts: 0,
  page_on_front: 0,
  show_on_front: 'posts',
};

const CHANNEL = 'content_site_options';

export class SiteOptions {
  private values = new Map<string, unknown>();
  private listeners: (() => void)[] = [];
  private listenClient: pg.PoolClient | null = null;
  private reconnectTimer: NodeJS.Timeout | null = null;
  private closed = false;
  /** Loads begun, the newest load applied, and this process's writes: see load(). */
  private loadsBegun = 0;
  private newestApplied = 0;
  private localWrites = 0;
  /** Loads this class starts itself (on notifications, after reconnecting): close() waits for them. */
  private readonly backgroundLoads = new Set<Promise<void>>();
  private readonly db: Kysely<Database>;
  private readonly pool: pg.Pool | undefined;
  constructor(db: Kysely<Database>, pool?: pg.Pool) {
    this.db = db;
    this.pool = pool;
  }

  /**
   * Reads every stored option into the cache. A notification can start a load while this process
   * writes or another load runs: rows read before a local write was cached, or older than those of
   * a load already applied, would put stale values back, so they are not applied (after a local
   * write the options are read again).
   */
  async load(): Promise<void> {
    for (;;) {
      const load = ++this.loadsBegun;
      const writes = this.localWrites;
      const rows = await this.db.selectFrom('options').select(['name', 'value']).execute();
      if (load < this.newestApplied) return;
      if (this.localWrites !== writes) continue;
      const next = new Map<string, unknown>();
      for (const row of rows) next.set(row.name, JSON.parse(row.value));
      this.values = next;
      this.newestApplied = load;
      for (const fn of this.listeners) fn();
      return;
    }
  }

  /**
   * Keeps the cache in step with other processes sharing the same PostgreSQL. When the
   * connection drops (database restart), it reconnects and reloads: notifications may have
   * been missed meanwhile.
   */
  async listen(): Promise<void> {
    if (!this.pool || this.listenClient || this.closed) return;
    const client = await this.pool.connect();
    if (this.closed) {
      // close() ran while connecting (a reconnect): it could not release this client.
      client.release();
      return;
    }
    this.listenClient = client;
    client.on('notification', () => this.inBackground(this.load().catch(() => {})));
    client.on('error', () => {
      client.release(true);
      if (this.listenClient === client) this.listenClient = null;
      this.scheduleReconnect();
    });
    await client.query(`LISTEN ${CHANNEL}`);
  }

  private scheduleReconnect(): void {
    if (this.closed || this.reconnectTimer) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = null;
      this.inBackground(
        this.listen()
          .then(() => this.load())
          .catch(() => this.scheduleReconnect()),
      );
    }, 1000);
    this.reconnectTimer.unref();
  }

  private inBackground(loading: Promise<void>): void {
    this.backgroundLoads.add(loading);
    void loading.finally(() => this.backgroundLoads.delete(loading));
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.reconnectTimer) clearTimeout(this.reconnectTimer);
    const client = this.listenClient;
    this.listenClient = null;
    if (client) {
      await client.query(`UNLISTEN ${CHANNEL}`).catch(() => {});
      client.release();
    }
    // A load still reading would call the change listeners after the caller closed the database.
    await Promise.all(this.backgroundLoads);
  }

  /** Called whenever the options change (cache invalidation of derived data, e.g. the index). */
  onChange(fn: () => void): void {
    this.listeners.push(fn);
  }

  get<K extends keyof SiteOptionValues>(name: K): SiteOptionValues[K] {
    return (
      this.values.has(name as string) ? this.values.get(name as string) : DEFAULT_OPTIONS[name]
    ) as SiteOptionValues[K];
  }

  /** The site's time zone: `timezone_string` when it names an IANA zone, else UTC. */
  timeZone(): string {
    const zone = this.get('timezone_string');
    return typeof zone === 'string' && zone && isValidTimeZone(zone) ? zone : 'UTC';
  }

  /** Whether the option has been stored (as opposed to falling back to its default). */
  isStored(name: string): boolean {
    return this.values.has(name);
  }

  async set(name: string, value: unknown): Promise<void> {
    await this.setMany({ [name]: value });
  }

  async setMany(entries: Record<string, unknown>): Promise<void> {
    const now = utcNow();
    await this.db.transaction().execute(async (tx) => {
      for (const [name, value] of Object.entries(entries)) {
        const json = JSON.stringify(value);
        await tx
          .insertInto('options')
          .values({ name, value: json, updated_at: now })
          .onConflict((oc) => oc.column('name').doUpdateSet({ value: json, updated_at: now }))
          .execute();
      }
    });
    this.localWrites++;
    for (const [name, value] of Object.entries(entries)) this.values.set(name, value);
    for (const fn of this.listeners) fn();
    if (this.pool) await this.pool.query(`NOTIFY ${CHANNEL}`);
  }
}
