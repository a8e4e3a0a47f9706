// Lists a handler hands over as JSON text, a slice of items at a time, instead of as objects. A
// list without a bound (a year of media events with their contexts: 27 MB of JSON for 43,000
// events) then goes to the client while it is read: the server holds one slice of it, not the
// whole list as objects, then as text, then as bytes. Built whole, eight such answers at once
// took the server past its heap limit and it died (issue 28).
//
// The HTTP adapter sends such a body as it is read (jsonChunks). Wherever the answer is used as a
// value instead (a batch item, the console, `_fields`, `_envelope`, `_pretty`), the pipeline
// reads the lists into arrays first (materialized): the answer is the same either way.

/** A list whose items come as JSON texts, a slice at a time, each time it is read. */
export class JsonList {
  readonly #slices: () => AsyncIterable<readonly string[]>;
  constructor(slices: () => AsyncIterable<readonly string[]>) {
    this.#slices = slices;
  }

  slices(): AsyncIterable<readonly string[]> {
    return this.#slices();
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
 * read: the same text JSON.stringify gives of it materialized.
 */
export async function* jsonChunks(value: unknown): AsyncGenerator<string> {
  let pending = '';
  for await (const piece of jsonPieces(value)) {
    pending += piece;
    if (pending.length >= CHUNK_CHARS) {
      yield pending;
      pending = '';
    }
  }
  if (pending) yield pending;
}

async function* jsonPieces(value: unknown): AsyncGenerator<string> {
  if (value instanceof JsonList) {
    let first = true;
    yield '[';
    for await (const slice of value.slices()) {
      if (!slice.length) continue;
      yield first ? slice.join(',') : `,${slice.join(',')}`;
      first = false;
    }
    yield ']';
  } else if (Array.isArray(value)) {
    yield '[';
    for (const [i, item] of value.entries()) {
      if (i) yield ',';
      if (unserializable(item)) yield 'null';
      else yield* jsonPieces(item);
    }
    yield ']';
  } else if (isPlainObject(value)) {
    let first = true;
    yield '{';
    for (const [key, v] of Object.entries(value)) {
      if (unserializable(v)) continue;
      yield `${first ? '' : ','}${JSON.stringify(key)}:`;
      first = false;
      yield* jsonPieces(v);
    }
    yield '}';
  } else {
    yield JSON.stringify(value);
  }
}
