// The worst shapes a request body or query can take, at a given size (issue 25): many items,
// many keys, deep nesting, long strings, unclosed markup and strings that make a backtracking
// regular expression work hard. Used by test/security/bounded-work.test.ts and `npm run soak`.

/** The longest query string a client's headers carry (Node's default header limit is 16 KiB). */
export const QUERY_BYTES = 12 * 1024;

export interface BodyShape {
  name: string;
  /** JSON text of at most `bytes` bytes. */
  json(bytes: number): string;
}

export interface PairsShape {
  name: string;
  /** `key=value` pairs (form or query encoding) for parameter `name`, at most `bytes` bytes. */
  pairs(name: string, bytes: number): string;
}

/** JSON text of items joined by commas inside `open`/`close`, as many as fit in `bytes`. */
function repeated(open: string, close: string, bytes: number, item: (i: number) => string): string {
  const parts: string[] = [];
  let length = open.length + close.length;
  for (let i = 0; ; i++) {
    const next = item(i);
    if (length + next.length + (i ? 1 : 0) > bytes) break;
    parts.push(next);
    length += next.length + (i ? 1 : 0);
  }
  return open + parts.join(',') + close;
}

/** A JSON string: `head` then `piece` as often as fits. */
function text(name: string, piece: string, head = ''): BodyShape {
  const pieceBytes = Buffer.byteLength(JSON.stringify(piece)) - 2;
  const headBytes = Buffer.byteLength(JSON.stringify(head)) - 2;
  return {
    name,
    json: (bytes) =>
      bytes < headBytes + 2
        ? '""'
        : JSON.stringify(head + piece.repeat(Math.floor((bytes - 2 - headBytes) / pieceBytes))),
  };
}

export const BODY_SHAPES: readonly BodyShape[] = [
  { name: 'objects with distinct keys', json: (bytes) => repeated('[', ']', bytes, (i) => `{"k${i}":${i}}`) },
  { name: 'many items', json: (bytes) => repeated('[', ']', bytes, () => '"1"') },
  { name: 'many keys', json: (bytes) => repeated('{', '}', bytes, (i) => `"k${i}":"1"`) },
  { name: 'deep lists', json: (bytes) => '['.repeat(Math.floor(bytes / 2)) + ']'.repeat(Math.floor(bytes / 2)) },
  {
    name: 'deep objects',
    json: (bytes) => '{"a":'.repeat(Math.floor((bytes - 1) / 6)) + '1' + '}'.repeat(Math.floor((bytes - 1) / 6)),
  },
  text('a long string', 'x'),
  text('unclosed start tags', '<a ', 'x'),
  text('unclosed tags without spaces', '<b'),
  text('unclosed comments', '<!--', 'x'),
  text('unclosed processing instructions', '<?', 'x'),
  text('unclosed CDATA', '<![CDATA[', 'x'),
  text('unclosed quotes in tags', "<a b='"),
  text('template openers', '{{', '{% for x in '),
  text('entities', '&#', '&'),
  text('percent signs', '%'),
  text('spaces before a letter', ' ', 'x'),
  text('letters then a bang', 'a', '!'),
  text('digits', '9'),
  text('comma lists', '1,'),
  text('backslashes', '\\'),
  text('at signs', 'a@'),
  text('host labels', 'a.', 'http://'),
  text('newlines', '\n'),
  text('NUL bytes', '\u0000'),
  text('date fragments', '2024-01-01 ', 'lastdays:'),
  text('emoji', '😀'),
];

const pairsOf = (name: string, bytes: number, pair: (i: number) => string): string => {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; ; i++) {
    const next = pair(i);
    if (length + next.length + 1 > bytes) break;
    parts.push(next);
    length += next.length + 1;
  }
  return parts.join('&');
};

export const FORM_SHAPES: readonly PairsShape[] = [
  { name: 'many items', pairs: (name, bytes) => pairsOf(name, bytes, () => `${encodeURIComponent(name)}[]=1`) },
  { name: 'many keys', pairs: (name, bytes) => pairsOf(name, bytes, (i) => `${encodeURIComponent(name)}[k${i}]=1`) },
  {
    name: 'deep keys',
    pairs: (name, bytes) =>
      `${encodeURIComponent(name)}${'[a]'.repeat(Math.max(0, Math.floor((bytes - name.length - 2) / 3)))}=1`,
  },
  {
    name: 'a long value',
    pairs: (name, bytes) => `${encodeURIComponent(name)}=${'x'.repeat(Math.max(0, bytes - name.length - 1))}`,
  },
  {
    name: 'unclosed start tags',
    pairs: (name, bytes) =>
      `${encodeURIComponent(name)}=x${'%3Ca+'.repeat(Math.max(0, Math.floor((bytes - name.length - 2) / 5)))}`,
  },
];

export const QUERY_SHAPES = FORM_SHAPES;

/** A JSON object giving each of `names` the shape, within `bytes` in all. */
export function bodyOf(names: readonly string[], shape: BodyShape, bytes: number): string {
  const keys = names.map((n) => JSON.stringify(n));
  const overhead = 2 + keys.reduce((n, k) => n + k.length + 2, 0);
  // One value for every name: the shapes are costly to make at a mebibyte.
  const value = shape.json(Math.floor((bytes - overhead) / names.length));
  const body = `{${keys.map((k) => `${k}:${value}`).join(',')}}`;
  if (Buffer.byteLength(body) > bytes)
    throw new Error(`${shape.name}: ${Buffer.byteLength(body)} bytes, over ${bytes}`);
  return body;
}

/** Form or query text giving each of `names` the shape, within `bytes` in all. */
export function formOf(names: readonly string[], shape: PairsShape, bytes: number): string {
  const each = Math.floor((bytes - names.length) / names.length);
  return names.map((n) => shape.pairs(n, each)).join('&');
}

export const queryOf = formOf;
