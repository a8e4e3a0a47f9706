// The typed shape of every table, for Kysely. Namespaces add their tables' interfaces here.
import type { Generated } from 'kysely';

export interface OptionsTable {
  name: string;
  /** JSON text. */
  value: string;
  updated_at: string;
}

export interface UsersTable {
  id: Generated<number>;
  login: string;
  email: string;
  display_name: string;
  role: string;
  password_hash: string | null;
  status: string;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  created_at: string;
  /** The user's language ('en', 'de'), or '' when they chose none. */
  locale: Generated<string>;
}

export interface AppPasswordsTable {
  uuid: string;
  user_id: number;
  app_id: string;
  name: string;
  password_hash: string;
  created_at: string;
  last_used: string | null;
  last_ip: string | null;
}

export interface HistoryEventsTable {
  id: Generated<number>;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  date: string;
  logger: string;
  level: string;
  message: string;
  message_key: string | null;
  occasions_id: string;
  initiator: string;
  user_id: number | null;
  remote_addr: string | null;
  sticky: Generated<number>;
  backfilled: Generated<number>;
  /** 1 when the newest row of a run of equal occasions ids in the whole log. */
  run_head: Generated<number>;
  /** Rows in the run (on run heads). */
  run_size: Generated<number>;
  search_text: string;
  /** Unused, always ''. */
  meta_text: string;
}

/** An event's context (migration 0011). */
export interface HistoryEventContextsTable {
  event_id: number;
  /** JSON text: `{"key": "value" | null, …}`, each key once, in first-written order. */
  context: string;
}

/** The inverted index of contexts for context_filters (migration 0013, context-index.ts). */
export interface HistoryContextTermsTable {
  block: number;
  term: number;
  ids: string;
  /** The pair's check (index/terms.ts pairCheck); null for trigram terms and shared terms. */
  pair_check: number | null;
}

export interface HistoryCountersTable {
  name: string;
  value: number;
}

/** Events per UTC hour, logger and message key (migrations 0009, 0010): inserts counted by the writers, deletions and updates by triggers. */
export interface HistoryStatsHourlyTable {
  /** UTC `YYYY-MM-DD HH`. */
  hour: string;
  logger: string;
  /** '' for events without a message key. */
  message_key: string;
  n: number;
}

/** Events per UTC day, logger and message key (migration 0022). */
export interface HistoryStatsDailyTable {
  /** UTC `YYYY-MM-DD`. */
  day: string;
  logger: string;
  /** '' for events without a message key. */
  message_key: string;
  n: number;
}

/** Events per UTC hour and level (migration 0022). */
export interface HistoryStatsHourlyLevelsTable {
  /** UTC `YYYY-MM-DD HH`. */
  hour: string;
  level: string;
  n: number;
}

/** Events with a user per UTC day, user, logger and message key (migration 0022). */
export interface HistoryStatsDailyUsersTable {
  /** UTC `YYYY-MM-DD`. */
  day: string;
  user_id: number;
  logger: string;
  /** '' for events without a message key. */
  message_key: string;
  n: number;
}

/** Failed logins per UTC day and attempted name (`s<name>`, `n` for null; migration 0022). */
export interface HistoryStatsDailyFailedLoginsTable {
  /** UTC `YYYY-MM-DD`. */
  day: string;
  attempted: string;
  n: number;
  /** The latest failed login's date; null when n is 0 or a deletion left it unknown (migration 0032). */
  last: string | null;
}

export interface Database {
  options: OptionsTable;
  users: UsersTable;
  app_passwords: AppPasswordsTable;
  history_events: HistoryEventsTable;
  history_event_contexts: HistoryEventContextsTable;
  history_context_terms: HistoryContextTermsTable;
  history_counters: HistoryCountersTable;
  history_stats_hourly: HistoryStatsHourlyTable;
  history_stats_daily: HistoryStatsDailyTable;
  history_stats_hourly_levels: HistoryStatsHourlyLevelsTable;
  history_stats_daily_users: HistoryStatsDailyUsersTable;
  history_stats_daily_failed_logins: HistoryStatsDailyFailedLoginsTable;
}

// --- sched/v1 (issue 5) ---
export interface SchedSettingsTable {
  section: string;
  /** JSON text of the stored fields of the section. */
  value: string;
  updated_at: string;
}

export interface SchedNoticeStateTable {
  id: Generated<number>;
  notice_id: string;
  /** 0 = site-wide. */
  user_id: number;
  /** 'dismissed' | 'pinned'. */
  kind: string;
  created_at: string;
}

export interface SchedTicketsTable {
  id: Generated<number>;
  user_id: number | null;
  name: string;
  email: string;
  subject: string;
  message: string;
  /** JSON text of the whole validated ticket. */
  payload: string;
  status: Generated<string>;
  created_at: string;
}

export interface SchedBackupsTable {
  id: Generated<number>;
  content: string;
  created_at: string;
}

// Interface merging keeps this an append-only change.
export interface Database {
  sched_settings: SchedSettingsTable;
  sched_notice_state: SchedNoticeStateTable;
  sched_tickets: SchedTicketsTable;
  sched_backups: SchedBackupsTable;
}

// --- i18n/tm/v1 (translation management) ---
export interface TmBatchesTable {
  id: Generated<number>;
  name: string;
  tp_id: number | null;
  created_at: string;
}

export interface TmJobsTable {
  id: Generated<number>;
  /** post | string | package | st-batch_strings */
  type: string;
  element_id: number;
  /** e.g. post_page, post_post, package_gravity_form, st-batch_strings */
  element_type: string;
  title: string;
  element_url: string | null;
  source_language: string;
  target_language: string;
  /** Stored status code (reference plugins §5.1; 3 and 30 are virtual, never stored). */
  status: number;
  needs_update: number;
  review_status: string | null;
  translator_id: number | null;
  batch_id: number | null;
  /** `local` or the id of a translation service. */
  translation_service: string;
  tp_id: number | null;
  ts_status: string | null;
  /** ate | classic | none */
  editor: string;
  /** The current ATE job of this job. */
  editor_job_id: number | null;
  automatic: number;
  note: string | null;
  /** UTC `YYYY-MM-DD HH:MM:SS`. */
  sent_date: string;
  /** `YYYY-MM-DD` or null. */
  deadline_date: string | null;
  created_at: string;
  updated_at: string;
}

export interface TmJobFieldsTable {
  id: Generated<number>;
  job_id: number;
  position: number;
  field_id: string;
  label: string | null;
  source: string;
  target: string | null;
  tm_suggestion: number;
  finished: number;
  wrap_tag: string | null;
}

export interface TmAteJobsTable {
  ate_job_id: Generated<number>;
  job_id: number;
  ate_status: number;
  /** JSON text. */
  data: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  tm_batches: TmBatchesTable;
  tm_jobs: TmJobsTable;
  tm_job_fields: TmJobFieldsTable;
  tm_ate_jobs: TmAteJobsTable;
}

// i18n/v1 and i18n/st/v1 (migration 0005_i18n_st).
export interface I18nKvTable {
  name: string;
  value: string;
  updated_at: string;
}

export interface I18nStStringsTable {
  id: Generated<number>;
  key_hash: string;
  language: string;
  domain: string;
  /** '' when the string has no gettext context. */
  context: string;
  name: string;
  value: string;
  sort_key: string;
  kind: number;
  type: number;
  source: number;
  /** JSON list of places the string was seen. */
  sources: string;
  translation_priority: string;
  status: number;
  word_count: number;
  package_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface I18nStTranslationsTable {
  id: Generated<number>;
  string_id: number;
  language: string;
  value: string | null;
  status: number;
  review_status: string | null;
  job_id: number | null;
  method: string | null;
  editor: string | null;
  translator_id: number | null;
  ate_job_id: number | null;
  updated_at: string;
}

export interface I18nStPackagesTable {
  id: Generated<number>;
  kind_slug: string;
  name: string;
  title: string;
  language: string;
  translator_note: string;
  word_count: number;
  view_link: string;
  edit_link: string;
  created_at: string;
  last_edit: string;
}

export interface I18nStPackageTranslationsTable {
  id: Generated<number>;
  package_id: number;
  language: string;
  status: number;
  review_status: string | null;
  job_id: number | null;
  method: string | null;
  editor: string | null;
  translator_id: number | null;
  ate_job_id: number | null;
  updated_at: string;
}

export interface I18nStQueueTable {
  id: Generated<number>;
  language: string;
  domain: string;
  context: string;
  name: string;
  value: string;
  type: number;
  source: number;
  page: string;
  quarantined: number;
  created_at: string;
}

export interface Database {
  i18n_kv: I18nKvTable;
  i18n_st_strings: I18nStStringsTable;
  i18n_st_translations: I18nStTranslationsTable;
  i18n_st_packages: I18nStPackagesTable;
  i18n_st_package_translations: I18nStPackageTranslationsTable;
  i18n_st_queue: I18nStQueueTable;
}

// --- site content, sliderx, oEmbed cache (issue 7) ---
export interface PostsTable {
  id: Generated<number>;
  /** 'page' | 'post'. */
  type: string;
  /** 'en' | 'de'. */
  lang: string;
  slug: string;
  title: string;
  /** Plain text; blank lines separate paragraphs. */
  content: string;
  excerpt: string;
  /** 'publish' | 'draft' | 'pending' | 'private' | 'trash'. */
  status: string;
  author_id: number | null;
  /** The parent page (pages only); null at the top. */
  parent_id: Generated<number | null>;
  /** Translation group: the id shared by an item and its translations. */
  trid: number | null;
  menu_order: Generated<number>;
  thumbnail_url: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
  created_at: string;
  modified_at: string;
}

export interface SlidersTable {
  id: Generated<number>;
  alias: string;
  /** JSON text: a string or {en, de}. */
  title: string;
  /** JSON text of the slider settings. */
  settings: string;
  created_at: string;
  modified_at: string;
}

export interface SliderSlidesTable {
  id: Generated<number>;
  slider_id: number;
  position: number;
  /** JSON text: a string or {en, de}. */
  title: string;
  image: string;
  thumb: string;
  link: string;
  /** JSON text. */
  params: string;
  /** JSON text: array of layers. */
  layers: string;
}

export interface OembedCacheTable {
  cache_key: string;
  /** JSON text of the cached proxy answer. */
  data: string;
  expires_at: string;
}

export interface Database {
  posts: PostsTable;
  sliders: SlidersTable;
  slider_slides: SliderSlidesTable;
  oembed_cache: OembedCacheTable;
}

// --- web pages: login sessions (issue 8) ---
export interface WebSessionsTable {
  /** SHA-256 (hex) of the session cookie's value. */
  id_hash: string;
  user_id: number;
  created_at: string;
  expires_at: string;
  ip: string;
  user_agent: string;
}

export interface WebKeysTable {
  name: string;
  value: string;
}

export interface Database {
  web_sessions: WebSessionsTable;
  web_keys: WebKeysTable;
}

// --- set-password links (issue 29) ---
export interface PasswordResetKeysTable {
  user_id: number;
  /** SHA-256 (hex) of the key in the link. */
  key_hash: string;
  created_at: string;
  expires_at: string;
}

export interface Database {
  password_reset_keys: PasswordResetKeysTable;
}

// --- server processes sharing the database (issue 29) ---
export interface ServerProcessesTable {
  /** Random id of one process's run. */
  id: string;
  host: string;
  pid: number;
  /** The address it listens on, e.g. http://127.0.0.1:8080. */
  address: string;
  site_url: string;
  /** 1 when SITE_URL was set, 0 when derived from HOST and PORT. */
  site_url_configured: number;
  started_at: string;
  seen_at: string;
}

// --- authentication state shared by every process (issue 25) ---
export interface LoginThrottleTable {
  ip: string;
  /** Milliseconds since the epoch. */
  window_start: number;
  attempts: number;
  refused: number;
  unlogged_refused: number;
}

export interface AuthCountersTable {
  name: string;
  value: number;
}

// --- imports from other systems (src/import, migration 0017) ---
export interface ImportRunsTable {
  id: Generated<number>;
  source: string;
  started_at: string;
  finished_at: string | null;
  /** running | done | failed. */
  status: string;
  /** JSON text of the report. */
  report: string;
}

export interface ImportMapTable {
  source: string;
  kind: string;
  source_id: string;
  target_id: string;
  checksum: string;
}

export interface ImportMarksTable {
  source: string;
  kind: string;
  mark: number;
}

export interface Database {
  server_processes: ServerProcessesTable;
  login_throttle: LoginThrottleTable;
  auth_counters: AuthCountersTable;
  import_runs: ImportRunsTable;
  import_map: ImportMapTable;
  import_marks: ImportMarksTable;
}
