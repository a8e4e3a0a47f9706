// The logger catalogue: every logger the activity log knows, as data. Namespaces export their
// own logger from src/namespaces/<ns>/logger.ts and are appended to LOGGERS.
import type { LoggerDef } from './activity.ts';
import type { AuthUser } from '../auth/types.ts';
import { customEntryLogger, simpleLogger } from '../namespaces/history/loggers/custom-entry.ts';
import { userLogger } from '../namespaces/history/loggers/user.ts';
import { historyLogger } from '../namespaces/history/loggers/history.ts';
import { categoriesLogger, commentsLogger, mediaLogger, menuLogger, notesLogger, postLogger } from '../namespaces/history/loggers/content.ts';
import {
  availableUpdatesLogger, coreFilesLogger, coreUpdatesLogger, exportLogger, fileEditsLogger, optionsLogger, pluginLogger,
  privacyLogger, roleCapabilityLogger, siteHealthLogger, themeLogger, translationsLogger,
} from '../namespaces/history/loggers/system.ts';
import {
  acfLogger, beaverBuilderLogger, cronControlLogger, duplicatePostLogger, enableMediaReplaceLogger, jetpackLogger,
  limitLoginAttemptsLogger, redirectionLogger, userSwitchingLogger,
} from '../namespaces/history/loggers/plugins.ts';
import { schedLogger } from '../namespaces/sched/logger.ts';
import { i18nLogger } from '../namespaces/i18n/logger.ts';
import { i18nStLogger } from '../namespaces/i18n-st/logger.ts';
import { i18nTmLogger } from '../namespaces/i18n-tm/logger.ts';
import { sliderxLogger } from '../namespaces/sliderx/logger.ts';
import { contentLogger } from '../pages/logger.ts';
import { importerLogger } from '../import/wordpress/logger.ts';

export const LOGGERS: LoggerDef[] = [
  availableUpdatesLogger,
  categoriesLogger,
  commentsLogger,
  coreFilesLogger,
  coreUpdatesLogger,
  customEntryLogger,
  exportLogger,
  fileEditsLogger,
  mediaLogger,
  menuLogger,
  notesLogger,
  optionsLogger,
  acfLogger,
  beaverBuilderLogger,
  duplicatePostLogger,
  enableMediaReplaceLogger,
  jetpackLogger,
  limitLoginAttemptsLogger,
  pluginLogger,
  redirectionLogger,
  userSwitchingLogger,
  cronControlLogger,
  postLogger,
  privacyLogger,
  roleCapabilityLogger,
  historyLogger,
  simpleLogger,
  siteHealthLogger,
  themeLogger,
  translationsLogger,
  userLogger,
  // The site's own parts (each namespace's logger.ts).
  contentLogger,
  schedLogger,
  sliderxLogger,
  i18nLogger,
  i18nStLogger,
  i18nTmLogger,
  importerLogger,
];

/** Capability needed to read events of a logger the catalogue does not know. */
export const UNKNOWN_LOGGER_CAPABILITY = 'manage_options';

interface CatalogueIndex {
  size: number;
  bySlug: Map<string, LoggerDef>;
  sorted: LoggerDef[];
  placeholders: Set<string>;
}
let index: CatalogueIndex | null = null;

function catalogue(): CatalogueIndex {
  if (index && index.size === LOGGERS.length) return index;
  const bySlug = new Map<string, LoggerDef>();
  const placeholders = new Set<string>();
  for (const def of LOGGERS) {
    bySlug.set(def.slug, def);
    for (const text of Object.values(def.messages)) for (const name of placeholdersOf(text.en)) placeholders.add(name);
  }
  const sorted = [...bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  index = { size: LOGGERS.length, bySlug, sorted, placeholders };
  return index;
}

export function findLogger(slug: string): LoggerDef | undefined {
  return catalogue().bySlug.get(slug);
}

/** All loggers, sorted by slug (the order the reference lists them in). */
export function allLoggers(): LoggerDef[] {
  return catalogue().sorted;
}

/** Placeholder names used by any template of the catalogue (what `search` looks at). */
export function cataloguePlaceholders(): Set<string> {
  return catalogue().placeholders;
}

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

export function canReadLogger(user: AuthUser | null, slug: string): boolean {
  if (!user) return false;
  return user.can(findLogger(slug)?.capability ?? UNKNOWN_LOGGER_CAPABILITY);
}

/**
 * Which loggers a user may read: `all` when every logger (including unknown ones) is
 * readable, so queries need no logger condition; otherwise the readable slugs.
 */
export type LoggerScope = { all: true } | { all: false; slugs: string[] };

export function loggerScope(user: AuthUser | null): LoggerScope {
  if (!user) return { all: false, slugs: [] };
  const readable = allLoggers().filter((def) => user.can(def.capability)).map((def) => def.slug);
  if (readable.length === allLoggers().length && user.can(UNKNOWN_LOGGER_CAPABILITY)) return { all: true };
  return { all: false, slugs: readable };
}
