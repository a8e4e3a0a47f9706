// The logger catalogue: every logger the activity log knows, as data. Each module lists its
// loggers in its SiteModule; the host builds one catalogue from the module list (src/modules.ts)
// and hands it to the services as `app.loggers`.
import type { LoggerDef } from './activity.ts';
import type { AuthUser } from '../auth/types.ts';

/** Capability needed to read events of a logger the catalogue does not know. */
export const UNKNOWN_LOGGER_CAPABILITY = 'manage_options';

/**
 * Which loggers a user may read: `all` when every logger (including unknown ones) is
 * readable, so queries need no logger condition; otherwise the readable slugs.
 */
export type LoggerScope = { all: true } | { all: false; slugs: string[] };

export class LoggerCatalogue {
  private readonly bySlug = new Map<string, LoggerDef>();
  /** All loggers, sorted by slug (the order the reference lists them in). */
  readonly sorted: readonly LoggerDef[];
  /** Placeholder names used by any template of the catalogue (what `search` looks at). */
  readonly placeholders = new Set<string>();

  constructor(defs: readonly LoggerDef[]) {
    for (const def of defs) {
      this.bySlug.set(def.slug, def);
      for (const text of Object.values(def.messages)) {
        for (const name of placeholdersOf(text.en)) this.placeholders.add(name);
      }
    }
    this.sorted = [...this.bySlug.values()].sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0));
  }

  find(slug: string): LoggerDef | undefined {
    return this.bySlug.get(slug);
  }

  canRead(user: AuthUser | null, slug: string): boolean {
    if (!user) return false;
    return user.can(this.find(slug)?.capability ?? UNKNOWN_LOGGER_CAPABILITY);
  }

  scope(user: AuthUser | null): LoggerScope {
    if (!user) return { all: false, slugs: [] };
    const readable = this.sorted.filter((def) => user.can(def.capability)).map((def) => def.slug);
    if (readable.length === this.sorted.length && user.can(UNKNOWN_LOGGER_CAPABILITY)) return { all: true };
    return { all: false, slugs: readable };
  }
}

export function placeholdersOf(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}
