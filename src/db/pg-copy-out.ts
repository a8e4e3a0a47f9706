// COPY … TO STDOUT through node-postgres' extension point for custom queries (what
// pg-copy-streams does), each row handed over as its fields' texts. For reading a million rows
// at once: PostgreSQL sends them in about a second, where node-postgres took 3.6–4.6 s to turn
// them into rows (a cursor fetching 2,000 or 20,000 at a time).
import type pg from 'pg';

/** A row's fields (null for SQL null). */
export type CopyFields = (string | null)[];

/** Runs `copy (query) to stdout` on `client`, calling `row` for each row in order. */
export function copyOut(client: pg.Client, query: string, row: (fields: CopyFields) => void): Promise<void> {
  const copy = new CopyOut(`copy (${query}) to stdout`, row);
  void client.query(copy as unknown as pg.QueryConfig);
  return copy.done;
}

const NEWLINE = 10;

class CopyOut {
  readonly text: string;
  readonly done: Promise<void>;
  readonly #row: (fields: CopyFields) => void;
  #resolve!: () => void;
  #reject!: (err: Error) => void;
  #failed: Error | null = null;

  constructor(text: string, row: (fields: CopyFields) => void) {
    this.text = text;
    this.#row = row;
    this.done = new Promise<void>((resolve, reject) => {
      this.#resolve = resolve;
      this.#reject = reject;
    });
  }

  submit(connection: { query(text: string): void }): void {
    connection.query(this.text);
  }

  /**
   * One message per row: its fields, tab-separated, ending in a newline. Decoded at once and
   * split (a string per field decoded from the bytes took twice as long).
   */
  handleCopyData(message: { chunk: Buffer }): void {
    if (this.#failed) return;
    const { chunk } = message;
    const end = chunk[chunk.length - 1] === NEWLINE ? chunk.length - 1 : chunk.length;
    const fields: CopyFields = chunk.toString('utf8', 0, end).split('\t');
    for (let i = 0; i < fields.length; i++) {
      const text = fields[i]!;
      if (text === '\\N') fields[i] = null;
      else if (text.includes('\\')) fields[i] = unescapeCopy(text);
    }
    try {
      this.#row(fields);
    } catch (err) {
      // The rows still arriving are dropped; the error is the answer once the copy ends.
      this.#failed = err instanceof Error ? err : new Error(String(err));
    }
  }

  handleError(err: Error): void {
    this.#failed ??= err;
    this.#reject(err);
  }

  handleReadyForQuery(): void {
    if (this.#failed) this.#reject(this.#failed);
    else this.#resolve();
  }

  handleCommandComplete(): void {}
  handleRowDescription(): void {}
  handleDataRow(): void {}
  handleEmptyQuery(): void {}
  handlePortalSuspended(): void {}
  handleCopyInResponse(): void {}
}

const ESCAPED: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/**
 * COPY's text format undone (`\N`, null, is taken apart before): the backslash sequences COPY
 * TO writes, a control character above as its letter and `\\` for a backslash (the octal and
 * hex forms are only read, never written). Sequence by sequence: 1,000,000 search texts with a
 * few line breaks each, undone and looked up in a map, took 0.4 s so against 0.7–1.4 s with a
 * regular expression and a replacement function (0.5 s replacing each sequence at once).
 */
function unescapeCopy(text: string): string {
  let out = '';
  let from = 0;
  for (let at = text.indexOf('\\'); at >= 0 && at < text.length - 1; at = text.indexOf('\\', from)) {
    const escaped = text[at + 1]!;
    out += text.slice(from, at) + (ESCAPED[escaped] ?? escaped);
    from = at + 2;
  }
  return out + text.slice(from);
}
