// Property tests of the schema engine: it never throws, every refusal is a rest_* error, and
// sanitised values of the simple types validate again and are stable under re-sanitisation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { ArgSchema, JsonType } from '../../src/rest/types.ts';
import { checkValue, sanitizeValue, validateValue } from '../../src/rest/schema/check-value.ts';

const SEED = 42;
const TYPES: JsonType[] = ['array', 'object', 'string', 'number', 'integer', 'boolean', 'null'];
const FORMATS = ['date-time', 'email', 'ip', 'uuid', 'hex-color', 'uri', 'text-field', 'textarea-field'] as const;

/** Characters that exercise the coercion and cleanup rules. */
const trickyChar = fc.constantFrom(
  'a',
  'Z',
  '0',
  '1',
  '5',
  '9',
  '.',
  ',',
  ' ',
  '\t',
  '\n',
  '\r',
  '-',
  '+',
  'e',
  'E',
  '%',
  '4',
  '<',
  '>',
  '/',
  ':',
  '@',
  '#',
  '&',
  ';',
  '"',
  "'",
  '[',
  ']',
  'ä',
  '😀',
  '\0',
  'f',
  'x',
  'T',
  '\u00a0',
);
const trickyString = fc.oneof(
  fc.string({ unit: trickyChar, maxLength: 24 }),
  fc.constantFrom(
    '',
    '0',
    '1',
    'true',
    'false',
    'FALSE',
    '1e3',
    '5.0',
    ' 5',
    '-0',
    '1e400',
    'NaN',
    '0x1A',
    '#fff',
    '::1',
    '127.0.0.1',
    '2024-01-02T03:04:05Z',
    '123e4567-e89b-12d3-a456-426614174000',
    'a@example.com',
    'javascript:alert(1)',
    'http://x.y/a b',
    '<b>x</b>',
    '%41',
  ),
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map(String),
);

/** What a request can carry: query-string shapes and JSON. */
const wireValue: fc.Arbitrary<unknown> = fc.oneof(
  trickyString,
  fc.array(trickyString, { maxLength: 4 }),
  fc.dictionary(fc.constantFrom('a', 'b', 'id_1', '0', '1', '__proto__', 'constructor'), trickyString, { maxKeys: 3 }),
  fc.jsonValue({ maxDepth: 3 }),
);

const bound = fc.oneof(fc.integer({ min: -1000, max: 1000 }), fc.double({ min: -1000, max: 1000, noNaN: true }));
const smallCount = fc.nat({ max: 5 });
const pattern = fc.constantFrom(
  '^[a-z]+$',
  '[0-9]',
  '^\\w+$',
  '(',
  '^(?P<a>x)',
  'a{2,}',
  '\\d+$',
  '[[:alpha:]]',
  '^.$',
);

const leafKeywords = {
  type: fc.oneof(fc.constantFrom(...TYPES), fc.uniqueArray(fc.constantFrom(...TYPES), { minLength: 1, maxLength: 3 })),
  format: fc.constantFrom(...FORMATS),
  enum: fc.array(fc.oneof(trickyString, fc.integer({ min: -5, max: 5 }), fc.boolean(), fc.constant(null)), {
    minLength: 1,
    maxLength: 3,
  }),
  minimum: bound,
  maximum: bound,
  exclusiveMinimum: fc.boolean(),
  exclusiveMaximum: fc.boolean(),
  multipleOf: fc.constantFrom(1, 2, 0.5, 0.1, 3),
  minLength: smallCount,
  maxLength: smallCount,
  pattern,
  minItems: smallCount,
  maxItems: smallCount,
  uniqueItems: fc.boolean(),
  minProperties: smallCount,
  maxProperties: smallCount,
  required: fc.array(fc.constantFrom('a', 'b'), { maxLength: 2 }),
  title: fc.constantFrom('A', 'B'),
};

/** Random schemas, nested at most `depth` levels (kept small: combinators multiply the work). */
function schemaOfDepth(depth: number): fc.Arbitrary<ArgSchema> {
  if (depth === 0) return fc.record(leafKeywords, { requiredKeys: [] }) as fc.Arbitrary<ArgSchema>;
  const child = schemaOfDepth(depth - 1);
  const nested = fc.record(
    {
      items: child,
      properties: fc.dictionary(fc.constantFrom('a', 'b', '0'), child, { maxKeys: 2 }),
      patternProperties: fc.dictionary(fc.constantFrom('^id_', '^[0-9]+$', '('), child, { maxKeys: 1 }),
      additionalProperties: fc.oneof(fc.boolean(), child),
      anyOf: fc.array(child, { minLength: 1, maxLength: 3 }),
      oneOf: fc.array(child, { minLength: 1, maxLength: 3 }),
    },
    { requiredKeys: [] },
  );
  return fc
    .tuple(fc.record(leafKeywords, { requiredKeys: [] }), fc.option(nested, { freq: 2 }))
    .map(([leaf, extra]) => ({ ...leaf, ...(extra ?? {}) }) as ArgSchema);
}

const schema = schemaOfDepth(2);

test('checkValue never throws and refuses only with rest_* errors', () => {
  fc.assert(
    fc.property(wireValue, schema, (value, s) => {
      const result = checkValue(value, s, 'x');
      if (!result.ok) {
        assert.match(result.error.code, /^rest_/);
        assert.equal(typeof result.error.message, 'string');
        assert.ok(result.error.data === null || typeof result.error.data === 'object');
      }
    }),
    { seed: SEED, numRuns: 3000 },
  );
});

test('validateValue and sanitizeValue never throw on their own', () => {
  fc.assert(
    fc.property(wireValue, schema, (value, s) => {
      validateValue(value, s, 'x');
      sanitizeValue(value, s, 'x');
    }),
    { seed: SEED, numRuns: 2000 },
  );
});

/** Schemas of one simple type with that type's keywords. */
const simpleSchema: fc.Arbitrary<ArgSchema> = fc.oneof(
  fc.record(
    {
      type: fc.constantFrom<JsonType>('integer', 'number'),
      minimum: bound,
      maximum: bound,
      exclusiveMinimum: fc.boolean(),
      exclusiveMaximum: fc.boolean(),
      multipleOf: fc.constantFrom(1, 2, 0.5),
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant<JsonType>('boolean') }),
  fc.record({ type: fc.constant<JsonType>('null') }),
  // Length and pattern are checked on the raw value and formats' sanitisers change the text
  // ("a" → "http://a"), so the reference is only stable for each of them alone.
  fc.record(
    {
      type: fc.constant<JsonType>('string'),
      minLength: smallCount,
      maxLength: fc.integer({ min: 5, max: 30 }),
      pattern,
    },
    { requiredKeys: ['type'] },
  ),
  fc.record({ type: fc.constant<JsonType>('string'), format: fc.constantFrom(...FORMATS) }),
  fc.record(
    {
      type: fc.constant<JsonType>('array'),
      items: fc.record({ type: fc.constantFrom<JsonType>('integer', 'string', 'boolean', 'number') }),
      uniqueItems: fc.boolean(),
      maxItems: fc.integer({ min: 2, max: 6 }),
    },
    { requiredKeys: ['type'] },
  ),
  // Not boolean with integer/number: "-0" is an integer, sanitised to 0, which is then a boolean.
  fc.record({
    type: fc.oneof(
      fc.uniqueArray(fc.constantFrom<JsonType>('integer', 'string', 'null', 'number'), { minLength: 1, maxLength: 3 }),
      fc.uniqueArray(fc.constantFrom<JsonType>('boolean', 'string', 'null'), { minLength: 1, maxLength: 3 }),
    ),
  }),
);

test('a sanitised valid value validates again and sanitises to itself', () => {
  fc.assert(
    fc.property(wireValue, simpleSchema, (value, s) => {
      const first = checkValue(value, s, 'x');
      if (!first.ok) return;
      const second = checkValue(first.value, s, 'x');
      assert.ok(second.ok, `re-check of ${JSON.stringify(first.value)} failed: ${JSON.stringify(second)}`);
      assert.deepEqual(second.value, first.value);
    }),
    { seed: SEED, numRuns: 5000 },
  );
});

test('integer coercion matches the reference examples for random integers', () => {
  fc.assert(
    fc.property(fc.integer({ min: -1e9, max: 1e9 }), (n) => {
      assert.deepEqual(checkValue(String(n), { type: 'integer' }, 'x'), { ok: true, value: n });
      assert.deepEqual(checkValue(`${n}.0`, { type: 'integer' }, 'x'), { ok: true, value: n });
      assert.deepEqual(checkValue(` ${n}`, { type: 'integer' }, 'x'), { ok: true, value: n });
    }),
    { seed: SEED, numRuns: 500 },
  );
});

test('lists of integers round-trip through the comma form', () => {
  fc.assert(
    fc.property(fc.array(fc.integer({ min: 0, max: 1e6 }), { maxLength: 10 }), (list) => {
      assert.deepEqual(checkValue(list.join(','), { type: 'array', items: { type: 'integer' } }, 'x'), {
        ok: true,
        value: list,
      });
    }),
    { seed: SEED, numRuns: 300 },
  );
});

test('string formats: sanitising a valid value is stable', () => {
  fc.assert(
    fc.property(fc.oneof(trickyString, fc.string({ maxLength: 30 })), fc.constantFrom(...FORMATS), (value, format) => {
      const s: ArgSchema = { type: 'string', format };
      const first = checkValue(value, s, 'x');
      if (!first.ok) return;
      const second = checkValue(first.value, s, 'x');
      assert.ok(second.ok, `${format}: re-check of ${JSON.stringify(first.value)} failed: ${JSON.stringify(second)}`);
      assert.deepEqual(second.value, first.value);
    }),
    { seed: SEED, numRuns: 10000 },
  );
});
