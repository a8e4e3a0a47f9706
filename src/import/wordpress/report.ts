// The report of a run: per kind what was available at the source, what was imported, updated,
// left unchanged or skipped (with reasons) and which conflicts were met and how they were
// resolved. Printed at the end, stored with the run and written as one activity-log event.

/** The kinds of data, in the order a run imports them (users before what they wrote). */
export type KindName = 'site' | 'sched' | 'users' | 'content' | 'history' | 'strings' | 'jobs' | 'sliders';

/** Conflicts listed one by one in a report; more are counted. */
const LISTED_CONFLICTS = 20;

export class KindReport {
  readonly kind: KindName;
  /** Set when the whole kind was skipped (e.g. its plugin's tables are absent). */
  skippedBecause: string | null = null;
  available = 0;
  imported = 0;
  updated = 0;
  unchanged = 0;
  readonly skipped = new Map<string, number>();
  conflictCount = 0;
  readonly conflicts: string[] = [];
  readonly notes: string[] = [];

  constructor(kind: KindName) {
    this.kind = kind;
  }

  /**
   * Counts an item against its earlier import (its mapping's fingerprint): unchanged, updated or
   * new. Returns whether it has to be written.
   */
  tally(previous: { checksum: string } | undefined, checksum: string): boolean {
    if (previous?.checksum === checksum) {
      this.unchanged++;
      return false;
    }
    if (previous) this.updated++;
    else this.imported++;
    return true;
  }

  skip(reason: string, n = 1): void {
    if (n > 0) this.skipped.set(reason, (this.skipped.get(reason) ?? 0) + n);
  }

  conflict(description: string): void {
    this.conflictCount++;
    if (this.conflicts.length < LISTED_CONFLICTS) this.conflicts.push(description);
  }

  note(text: string): void {
    if (!this.notes.includes(text)) this.notes.push(text);
  }

  get skippedTotal(): number {
    let n = 0;
    for (const v of this.skipped.values()) n += v;
    return n;
  }

  toJSON(): Record<string, unknown> {
    return {
      kind: this.kind,
      ...(this.skippedBecause ? { skipped_because: this.skippedBecause } : {}),
      available: this.available,
      imported: this.imported,
      updated: this.updated,
      unchanged: this.unchanged,
      skipped: Object.fromEntries(this.skipped),
      conflicts: this.conflictCount,
      conflict_examples: this.conflicts,
      notes: this.notes,
    };
  }
}

export class ImportReport {
  readonly source: string;
  readonly dryRun: boolean;
  readonly kinds = new Map<KindName, KindReport>();
  startedAt = Date.now();
  seconds = 0;
  error: string | null = null;

  constructor(source: string, dryRun: boolean) {
    this.source = source;
    this.dryRun = dryRun;
  }

  kind(name: KindName): KindReport {
    let k = this.kinds.get(name);
    if (!k) this.kinds.set(name, (k = new KindReport(name)));
    return k;
  }

  /** Whether the run imported or updated anything. */
  changed(): boolean {
    return [...this.kinds.values()].some((k) => k.imported > 0 || k.updated > 0);
  }

  /** One line for the activity log: counts per kind. */
  summary(): string {
    const parts: string[] = [];
    for (const k of this.kinds.values()) {
      if (k.skippedBecause) {
        parts.push(`${k.kind}: skipped`);
        continue;
      }
      parts.push(
        `${k.kind}: ${k.imported} new, ${k.updated} updated, ${k.unchanged} unchanged, ${k.skippedTotal} skipped`,
      );
    }
    return parts.join('; ');
  }

  toJSON(): Record<string, unknown> {
    return {
      source: this.source,
      dry_run: this.dryRun,
      seconds: this.seconds,
      error: this.error,
      kinds: [...this.kinds.values()].map((k) => k.toJSON()),
    };
  }

  /** The report as text for the terminal. */
  format(): string {
    const lines: string[] = [];
    lines.push(
      this.dryRun
        ? `Dry run: what an import from ${this.source} would do (nothing was written)`
        : `Import from ${this.source}`,
    );
    const verbs = this.dryRun ? ['would import', 'would update'] : ['imported', 'updated'];
    for (const k of this.kinds.values()) {
      if (k.skippedBecause) {
        lines.push(`  ${k.kind}: skipped — ${k.skippedBecause}`);
        continue;
      }
      lines.push(
        `  ${k.kind}: ${k.available} at the source; ${verbs[0]} ${k.imported}, ${verbs[1]} ${k.updated}, unchanged ${k.unchanged}, skipped ${k.skippedTotal}`,
      );
      for (const [reason, n] of k.skipped) lines.push(`    skipped ${n}: ${reason}`);
      if (k.conflictCount) {
        lines.push(`    conflicts: ${k.conflictCount}`);
        for (const c of k.conflicts) lines.push(`      - ${c}`);
        if (k.conflictCount > k.conflicts.length)
          lines.push(`      … and ${k.conflictCount - k.conflicts.length} more`);
      }
      for (const n of k.notes) lines.push(`    note: ${n}`);
    }
    if (this.error) lines.push(`  failed: ${this.error}`);
    lines.push(`  ${this.seconds.toFixed(1)} s`);
    return lines.join('\n') + '\n';
  }
}
