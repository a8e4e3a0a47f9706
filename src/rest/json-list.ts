// Lists a handler hands over as JSON text, a slice of items at a time, instead of as objects. A
// list without a bound (a year of media events with their contexts: 27 MB of JSON for 43,000
// events) then goes to the client while it is read: the server holds one slice of it, not the
// whole list as objects, then as text, then as bytes. Built whole, eight such answers at once
// took the server past its heap limit and it died (issue 28).
//
// The HTTP adapter sends such a body as it is read (jsonChunks), `_fields`, `_envelope` and
// `_pretty` too. Wherever the answer is used as a value instead (a batch item, the console), the
// pipeline reads the lists into arrays first (materialized): the answer is the same either way.

/** A list whose items come as JSON texts, a slice at a time, each time it is read. */
export class JsonList {
  readonly #slices: () => AsyncIterable<readonly string[]>;
  constructor(slices: () => AsyncIterable<readonly string[]>) {
    this.#slices = slices;
  }

  slices(): AsyncIterable<readonly string[]> {
    return this.#slices();
  }

  /** The same list with each item changed by `change` (`_fields` applied to each item, say). */
  mapItems(change: (item: unknown) => unknown): JsonList {
    const source = this;
    return new JsonList(async function* () {
      for await (const slice of source.slices()) yield slice.map((text) => JSON.stringify(change(JSON.parse(text))));
    });
  }

  async toArray(): Promise<unknown[]> {
    const items: unknown[] = [];
    for await (const slice of this.slices()) for (const text of slice) items.push(JSON.parse(text));
    return items;
  }
}

/**
 * A handler's answer holding JsonLists in its plain objects and arrays. Marked so that only such
 * answers are walked for them: every other answer is serialized as before.
 */
export class ListedBody {
  readonly value: unknown;
  constructor(value: unknown) {
    this.value = value;
  }
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => {
  if (v === null || typeof v !== 'object') return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null;
};

/** `value` with each JsonList in its plain objects and arrays read into an array. */
export async function materialized(value: unknown): Promise<unknown> {
  if (value instanceof JsonList) return value.toArray();
  if (Array.isArray(value)) return Promise.all(value.map(materialized));
  if (!isPlainObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) {
    // As a property, so that a key "__proto__" stays a key.
    Object.defineProperty(out, key, {
      value: await materialized(v),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

/** What JSON.stringify leaves out of an object (and writes as null in an array). */
const unserializable = (v: unknown) => v === undefined || typeof v === 'function' || typeof v === 'symbol';

/** Characters of JSON text up to which pieces are joined into one chunk to send. */
const CHUNK_CHARS = 64 * 1024;

/**
 * The JSON text of `value` in chunks of about CHUNK_CHARS, its JsonLists' items as they are
 * read: the same text JSON.stringify gives of it materialized (with `indent`, as
 * JSON.stringify(value, null, indent) does).
 */
export async function* jsonChunks(value: unknown, indent = 0): AsyncGenerator<string> {
  let pending = '';
  for await (const piece of jsonPieces(value, indent, 0)) {
    pending += piece;
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

/** Line breaks and indentation before an entry at `depth` (nothing when not indented). */
const breakAt = (indent: number, depth: number) => (indent ? `\n${' '.repeat(indent * depth)}` : '');

/** JSON.stringify of a value at `depth`, indented as it would be there. */
const stringifyAt = (value: unknown, indent: number, depth: number) =>
  indent ? JSON.stringify(value, null, indent).replaceAll('\n', breakAt(indent, depth)) : JSON.stringify(value);

async function* jsonPieces(value: unknown, indent: number, depth: number): AsyncGenerator<string> {
  const inner = breakAt(indent, depth + 1);
  if (value instanceof JsonList) {
    let first = true;
    yield '[';
    for await (const slice of value.slices()) {
      if (!slice.length) continue;
      const texts = indent ? slice.map((text) => stringifyAt(JSON.parse(text), indent, depth + 1)) : slice;
      yield (first ? inner : `,${inner}`) + texts.join(`,${inner}`);
      first = false;
    }
    yield first ? ']' : `${breakAt(indent, depth)}]`;
  } else if (Array.isArray(value)) {
    if (!value.length) return yield '[]';
    yield '[';
    for (const [i, item] of value.entries()) {
      yield i ? `,${inner}` : inner;
      if (unserializable(item)) yield 'null';
      else yield* jsonPieces(item, indent, depth + 1);
    }
    yield `${breakAt(indent, depth)}]`;
  } else if (isPlainObject(value)) {
    let first = true;
    yield '{';
    for (const [key, v] of Object.entries(value)) {
      if (unserializable(v)) continue;
      yield `${first ? inner : `,${inner}`}${JSON.stringify(key)}:${indent ? ' ' : ''}`;
      first = false;
      yield* jsonPieces(v, indent, depth + 1);
    }
    yield first ? '}' : `${breakAt(indent, depth)}}`;
  } else {
    yield stringifyAt(value, indent, depth);
  }
}
