// Table tests of the argument validation/sanitisation engine against reference rest-core §3:
// every keyword, every format and each message variant, with the exact codes and messages.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import type { ArgSchema } from '../../src/rest/types.ts';
import { checkValue, validateValue, sanitizeValue } from '../../src/rest/schema/check-value.ts';
import { isSchemaFailure } from '../../src/rest/schema/errors.ts';
import { compilePcre, matchesPattern } from '../../src/rest/schema/pcre.ts';
import { sanitizeTextField } from '../../src/rest/schema/text-field.ts';
import { sanitizeUrl } from '../../src/rest/schema/url.ts';

type Expect = { ok: unknown } | { code: string; message: string; data?: unknown };
type Case = [label: string, value: unknown, schema: ArgSchema, expected: Expect, name?: string];

function run(cases: Case[]): void {
  for (const [label, value, schema, expected, name = 'x'] of cases) {
    test(label, () => {
      const result = checkValue(value, schema, name);
      if ('ok' in expected) {
        assert.deepEqual(result, { ok: true, value: expected.ok });
      } else {
        assert.equal(result.ok, false, `expected ${expected.code}, got ${JSON.stringify(result)}`);
        if (result.ok) return;
        assert.equal(result.error.code, expected.code);
        assert.equal(result.error.message, expected.message);
        if ('data' in expected) assert.deepEqual(result.error.data, expected.data);
      }
    });
  }
}

const ok = (value: unknown): Expect => ({ ok: value });
const err = (code: string, message: string, data?: unknown): Expect =>
  data === undefined ? { code, message } : { code, message, data };
const type = (name: string, t: string): Expect =>
  err('rest_invalid_type', `${name} is not of type ${t}.`, { param: name });

describe('integer', () => {
  const int: ArgSchema = { type: 'integer' };
  run([
    ['numeric string', '5', int, ok(5)],
    ['leading space', ' 5', int, ok(5)],
    ['trailing space (PHP 8 numeric)', '5 ', int, ok(5)],
    ['"5.0" truncates', '5.0', int, ok(5)],
    ['"1e3" → 1000', '1e3', int, ok(1000)],
    ['negative', '-12', int, ok(-12)],
    ['plus sign', '+7', int, ok(7)],
    ['JSON number', 42, int, ok(42)],
    ['JSON float with no fraction', 3.0, int, ok(3)],
    ['fraction is not integer', '1.5', int, type('x', 'integer')],
    ['empty string', '', int, type('x', 'integer')],
    ['boolean', true, int, type('x', 'integer')],
    ['hex is not numeric', '0x1A', int, type('x', 'integer')],
    ['letters', 'abc', int, type('page', 'integer'), 'page'],
    ['null', null, int, type('x', 'integer')],
    ['list', ['1'], int, type('x', 'integer')],
    ['overflowing exponent', '1e400', int, type('x', 'integer')],
    [
      'beyond 2^53 − 1 names no one integer',
      '9007199254740992',
      int,
      err('rest_out_of_bounds', 'x must be between -9007199254740991 (inclusive) and 9007199254740991 (inclusive)'),
    ],
    [
      'huge JSON number',
      1e20,
      int,
      err('rest_out_of_bounds', 'x must be between -9007199254740991 (inclusive) and 9007199254740991 (inclusive)'),
    ],
    ['largest safe integer', '-9007199254740991', int, ok(-9007199254740991)],
    [
      'bound reported before integrality',
      '1.5',
      { type: 'integer', minimum: 2 },
      err('rest_out_of_bounds', 'x must be greater than or equal to 2', null),
    ],
    [
      'page must be ≥ 1',
      '0',
      { type: 'integer', minimum: 1 },
      err('rest_out_of_bounds', 'page must be greater than or equal to 1', null),
      'page',
    ],
    [
      'per_page range',
      '0',
      { type: 'integer', minimum: 1, maximum: 100 },
      err('rest_out_of_bounds', 'per_page must be between 1 (inclusive) and 100 (inclusive)', null),
      'per_page',
    ],
    [
      'range upper',
      101,
      { type: 'integer', minimum: 1, maximum: 100 },
      err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 100 (inclusive)'),
    ],
    ['in range', '100', { type: 'integer', minimum: 1, maximum: 100 }, ok(100)],
  ]);
});

describe('number', () => {
  const num: ArgSchema = { type: 'number' };
  run([
    ['decimal string', '1.5', num, ok(1.5)],
    ['negative', '-2', num, ok(-2)],
    ['leading dot', '.5', num, ok(0.5)],
    ['trailing dot', '1.', num, ok(1)],
    ['exponent', '1e5', num, ok(100000)],
    ['JSON number', 2.25, num, ok(2.25)],
    ['hex', '0x10', num, type('x', 'number')],
    ['boolean', false, num, type('x', 'number')],
    ['"1e" is not numeric', '1e', num, type('x', 'number')],
    ['whitespace only', ' ', num, type('x', 'number')],
    ['NUL byte', '5\0', num, type('x', 'number')],
  ]);
});

describe('numeric bounds and multipleOf', () => {
  run([
    ['minimum inclusive ok', 5, { type: 'number', minimum: 5 }, ok(5)],
    [
      'minimum exclusive',
      5,
      { type: 'number', minimum: 5, exclusiveMinimum: true },
      err('rest_out_of_bounds', 'x must be greater than 5'),
    ],
    [
      'maximum inclusive',
      6,
      { type: 'number', maximum: 5 },
      err('rest_out_of_bounds', 'x must be less than or equal to 5'),
    ],
    [
      'maximum exclusive',
      5,
      { type: 'number', maximum: 5, exclusiveMaximum: true },
      err('rest_out_of_bounds', 'x must be less than 5'),
    ],
    [
      'both exclusive',
      1,
      { type: 'number', minimum: 1, maximum: 3, exclusiveMinimum: true, exclusiveMaximum: true },
      err('rest_out_of_bounds', 'x must be between 1 (exclusive) and 3 (exclusive)'),
    ],
    [
      'exclusive min only',
      3.5,
      { type: 'number', minimum: 1, maximum: 3, exclusiveMinimum: true },
      err('rest_out_of_bounds', 'x must be between 1 (exclusive) and 3 (inclusive)'),
    ],
    [
      'exclusive max only',
      3,
      { type: 'number', minimum: 1, maximum: 3, exclusiveMaximum: true },
      err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 3 (exclusive)'),
    ],
    [
      'bounds printed as integers',
      0,
      { type: 'number', minimum: 1.7, maximum: 2.9 },
      err('rest_out_of_bounds', 'x must be between 1 (inclusive) and 2 (inclusive)'),
    ],
    [
      'negative fractional bound truncates toward zero',
      -5,
      { type: 'number', minimum: -2.5 },
      err('rest_out_of_bounds', 'x must be greater than or equal to -2'),
    ],
    ['exclusive flags false behave as absent', 5, { type: 'number', minimum: 5, exclusiveMinimum: false }, ok(5)],
    ['multipleOf ok', '10', { type: 'integer', multipleOf: 5 }, ok(10)],
    [
      'multipleOf fails',
      '7',
      { type: 'integer', multipleOf: 5 },
      err('rest_invalid_multiple', 'x must be a multiple of 5.'),
    ],
    [
      'multipleOf float remainder',
      '0.3',
      { type: 'number', multipleOf: 0.1 },
      err('rest_invalid_multiple', 'x must be a multiple of 0.1.'),
    ],
    [
      'multipleOf before bounds',
      7,
      { type: 'integer', multipleOf: 2, maximum: 5 },
      err('rest_invalid_multiple', 'x must be a multiple of 2.'),
    ],
    ['multipleOf half', '2.5', { type: 'number', multipleOf: 0.5 }, ok(2.5)],
    [
      'multipleOf printed like PHP floats',
      1,
      { type: 'number', multipleOf: 1e-7 * 3 },
      err('rest_invalid_multiple', 'x must be a multiple of 3.0E-7.'),
    ],
    [
      'multipleOf printed with 14 significant digits',
      1,
      { type: 'number', multipleOf: 0.1 + 0.2 },
      err('rest_invalid_multiple', 'x must be a multiple of 0.3.'),
    ],
    ['long numeric string with leading zeros', '0'.repeat(2000) + '5', { type: 'integer' }, ok(5)],
  ]);
});

describe('boolean', () => {
  const bool: ArgSchema = { type: 'boolean' };
  run([
    ['true', true, bool, ok(true)],
    ['false', false, bool, ok(false)],
    ['"false"', 'false', bool, ok(false)],
    ['"FALSE" any case', 'FALSE', bool, ok(false)],
    ['"0"', '0', bool, ok(false)],
    ['"1"', '1', bool, ok(true)],
    ['"True"', 'True', bool, ok(true)],
    ['integer 0', 0, bool, ok(false)],
    ['integer 1', 1, bool, ok(true)],
    ['integer 2', 2, bool, type('x', 'boolean')],
    ['"yes"', 'yes', bool, type('x', 'boolean')],
    ['empty string', '', bool, type('x', 'boolean')],
    ['null', null, bool, type('x', 'boolean')],
  ]);
});

describe('string', () => {
  run([
    ['plain string kept as is', ' a <b> %41 ', { type: 'string' }, ok(' a <b> %41 ')],
    ['number is not a string', 5, { type: 'string' }, type('x', 'string')],
    ['boolean is not a string', true, { type: 'string' }, type('x', 'string')],
    ['null', null, { type: 'string' }, type('x', 'string')],
    [
      'minLength',
      'ab',
      { type: 'string', minLength: 3 },
      err('rest_too_short', 'x must be at least 3 characters long.'),
    ],
    [
      'minLength singular',
      '',
      { type: 'string', minLength: 1 },
      err('rest_too_short', 'x must be at least 1 character long.'),
    ],
    [
      'maxLength',
      'abc',
      { type: 'string', maxLength: 2 },
      err('rest_too_long', 'x must be at most 2 characters long.'),
    ],
    [
      'maxLength singular',
      'ab',
      { type: 'string', maxLength: 1 },
      err('rest_too_long', 'x must be at most 1 character long.'),
    ],
    [
      'thousands separator',
      'a',
      { type: 'string', minLength: 1000 },
      err('rest_too_short', 'x must be at least 1,000 characters long.'),
    ],
    [
      'millions',
      'a',
      { type: 'string', minLength: 1234567 },
      err('rest_too_short', 'x must be at least 1,234,567 characters long.'),
    ],
    ['code points, not UTF-16 units', '😀😀', { type: 'string', maxLength: 2 }, ok('😀😀')],
    [
      'code points too long',
      '😀😀😀',
      { type: 'string', maxLength: 2 },
      err('rest_too_long', 'x must be at most 2 characters long.'),
    ],
    ['umlauts are one character', 'äöü', { type: 'string', minLength: 3, maxLength: 3 }, ok('äöü')],
    ['pattern unanchored', 'xx12yy', { type: 'string', pattern: '[0-9]+' }, ok('xx12yy')],
    [
      'pattern fails',
      'abc',
      { type: 'string', pattern: '^[0-9]+$' },
      err('rest_invalid_pattern', 'x does not match pattern ^[0-9]+$.'),
    ],
    ['pattern Unicode mode', 'é', { type: 'string', pattern: '^.$' }, ok('é')],
    ['pattern \\w is Unicode (PCRE /u)', 'Größe', { type: 'string', pattern: '^\\w+$' }, ok('Größe')],
    ['pattern with # delimiter char', 'a#b', { type: 'string', pattern: 'a#b' }, ok('a#b')],
    [
      'invalid pattern never matches',
      'abc',
      { type: 'string', pattern: '(' },
      err('rest_invalid_pattern', 'x does not match pattern (.'),
    ],
    [
      'minLength before pattern',
      'a',
      { type: 'string', minLength: 2, pattern: '^[0-9]+$' },
      err('rest_too_short', 'x must be at least 2 characters long.'),
    ],
  ]);
});

describe('null and multiple types', () => {
  run([
    ['null accepts null', null, { type: 'null' }, ok(null)],
    ['null rejects "null"', 'null', { type: 'null' }, type('x', 'null')],
    ['null rejects ""', '', { type: 'null' }, type('x', 'null')],
    ['["integer","string"] turns "5" into 5', '5', { type: ['integer', 'string'] }, ok(5)],
    ['["string","integer"] keeps "5"', '5', { type: ['string', 'integer'] }, ok('5')],
    ['["array","string"] splits strings', 'a,b', { type: ['array', 'string'] }, ok(['a', 'b'])],
    ['empty string picks string', '', { type: ['array', 'string'] }, ok('')],
    ['empty string picks string even if listed last', '', { type: ['object', 'integer', 'string'] }, ok('')],
    ['["string","null"] with null', null, { type: ['string', 'null'] }, ok(null)],
    ['["string","null"] with number', 5, { type: ['string', 'null'] }, type('x', 'string,null')],
    ['["integer","boolean"] with "true"', 'true', { type: ['integer', 'boolean'] }, ok(true)],
    ['["boolean","integer"] with "1"', '1', { type: ['boolean', 'integer'] }, ok(true)],
    ['["number","null"] with "abc"', 'abc', { type: ['number', 'null'] }, type('x', 'number,null')],
    ['["object","string"] with map', { a: '1' }, { type: ['object', 'string'] }, ok({ a: '1' })],
    [
      'multi-type checks still apply',
      '200',
      { type: ['integer', 'string'], maximum: 100 },
      err('rest_out_of_bounds', 'x must be less than or equal to 100'),
    ],
    ['no type at all: anything goes', { a: 1 }, {}, ok({ a: 1 })],
  ]);
  test('multi-type non-match sanitises to null', () => {
    assert.equal(sanitizeValue(5, { type: ['string', 'null'] }, 'x'), null);
  });
});

describe('array', () => {
  run([
    ['comma/space list', 'a, b c', { type: 'array' }, ok(['a', 'b', 'c'])],
    ['runs of separators dropped', ',,a,, ,b,', { type: 'array' }, ok(['a', 'b'])],
    ['"" → []', '', { type: 'array' }, ok([])],
    ['scalar number → one item', 5, { type: 'array' }, ok(['5'])],
    ['items sanitised', '1,2', { type: 'array', items: { type: 'integer' } }, ok([1, 2])],
    ['query list', ['1', '2'], { type: 'array', items: { type: 'integer' } }, ok([1, 2])],
    ['numeric-keyed map is a list (re-indexed)', { 0: 'a', 1: 'b' }, { type: 'array' }, ok(['a', 'b'])],
    ['map is not a list', { k: '1' }, { type: 'array' }, type('x', 'array')],
    ['null is not an array', null, { type: 'array' }, type('x', 'array')],
    [
      'item error with bracket path',
      ['1', 'a'],
      { type: 'array', items: { type: 'integer' } },
      type('x[1]', 'integer'),
    ],
    [
      'first item failure returned',
      ['a', 'b'],
      { type: 'array', items: { type: 'integer' } },
      type('ids[0]', 'integer'),
      'ids',
    ],
    ['minItems', ['a'], { type: 'array', minItems: 2 }, err('rest_too_few_items', 'x must contain at least 2 items.')],
    [
      'minItems singular',
      [],
      { type: 'array', minItems: 1 },
      err('rest_too_few_items', 'x must contain at least 1 item.'),
    ],
    [
      'maxItems',
      ['a', 'b'],
      { type: 'array', maxItems: 1 },
      err('rest_too_many_items', 'x must contain at most 1 item.'),
    ],
    [
      'maxItems plural',
      ['a', 'b', 'c'],
      { type: 'array', maxItems: 2 },
      err('rest_too_many_items', 'x must contain at most 2 items.'),
    ],
    [
      'items before minItems',
      ['a'],
      { type: 'array', items: { type: 'integer' }, minItems: 2 },
      type('x[0]', 'integer'),
    ],
    [
      'uniqueItems',
      ['a', 'a'],
      { type: 'array', uniqueItems: true },
      err('rest_duplicate_items', 'x has duplicate items.'),
    ],
    ['uniqueItems "1" and 1 differ', ['1', 1], { type: 'array', uniqueItems: true }, ok(['1', 1])],
    [
      'uniqueItems objects with keys in another order',
      [
        { a: 1, b: 2 },
        { b: 2, a: 1 },
      ],
      { type: 'array', uniqueItems: true },
      err('rest_duplicate_items', 'x has duplicate items.'),
    ],
    [
      'uniqueItems nested maps sorted recursively',
      [{ o: { a: 1, b: 2 } }, { o: { b: 2, a: 1 } }],
      { type: 'array', uniqueItems: true },
      err('rest_duplicate_items', 'x has duplicate items.'),
    ],
    [
      'uniqueItems checked again after sanitising',
      ['1', '01'],
      { type: 'array', items: { type: 'integer' }, uniqueItems: true },
      err('rest_duplicate_items', 'x has duplicate items.'),
    ],
    ['uniqueItems ok', '1,2,3', { type: 'array', items: { type: 'integer' }, uniqueItems: true }, ok([1, 2, 3])],
    [
      'nested arrays',
      [['1'], ['2', '3']],
      { type: 'array', items: { type: 'array', items: { type: 'integer' } } },
      ok([[1], [2, 3]]),
    ],
  ]);
});

describe('object', () => {
  const batchItem: ArgSchema = {
    type: 'object',
    properties: {
      method: { type: 'string', enum: ['POST', 'PUT', 'PATCH', 'DELETE'] },
      path: { type: 'string', required: true },
      body: { type: 'object', additionalProperties: true },
    },
  };
  run([
    ['map', { a: '1' }, { type: 'object' }, ok({ a: '1' })],
    ['"" → {}', '', { type: 'object' }, ok({})],
    ['list passes as object and becomes a map', ['a', 'b'], { type: 'object' }, ok({ 0: 'a', 1: 'b' })],
    ['scalar is not an object', 'abc', { type: 'object' }, type('x', 'object')],
    ['number is not an object', 5, { type: 'object' }, type('x', 'object')],
    ['null is not an object', null, { type: 'object' }, type('x', 'object')],
    [
      'properties sanitised',
      { n: '5', s: 'x' },
      { type: 'object', properties: { n: { type: 'integer' } } },
      ok({ n: 5, s: 'x' }),
    ],
    [
      'property error with bracket path',
      { n: 'a' },
      { type: 'object', properties: { n: { type: 'integer' } } },
      type('meta[n]', 'integer'),
      'meta',
    ],
    [
      'draft-4 required',
      { a: 1 },
      { type: 'object', required: ['a', 'b', 'c'] },
      err('rest_property_required', 'b is a required property of x.', null),
    ],
    ['draft-4 required present as null', { a: null }, { type: 'object', required: ['a'] }, ok({ a: null })],
    [
      'draft-4 required: an inherited name is not present',
      {},
      { type: 'object', required: ['toString'] },
      err('rest_property_required', 'toString is a required property of x.', null),
    ],
    [
      'draft-4 required: a list is checked by index',
      ['a'],
      { type: 'object', required: ['0', '1'] },
      err('rest_property_required', '1 is a required property of x.', null),
    ],
    [
      'draft-4 required: __proto__ as an own key',
      JSON.parse('{"__proto__": 1}'),
      { type: 'object', required: ['__proto__'] },
      ok(JSON.parse('{"__proto__": 1}')),
    ],
    [
      'draft-3 required',
      { method: 'POST' },
      batchItem,
      err('rest_property_required', 'path is a required property of x.'),
    ],
    ['draft-4 wins over draft-3', { method: 'POST' }, { ...batchItem, required: ['method'] }, ok({ method: 'POST' })],
    ['top-level required: true is not a property list', { a: 1 }, { type: 'object', required: true }, ok({ a: 1 })],
    [
      'nested bracket path through list and object',
      { requests: [{ method: 'GET', path: '/x' }] },
      { type: 'object', properties: { requests: { type: 'array', items: batchItem } } },
      err('rest_not_in_enum', 'body[requests][0][method] is not one of POST, PUT, PATCH, and DELETE.'),
      'body',
    ],
    [
      'additionalProperties false',
      { a: 1, b: 2 },
      { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false },
      err('rest_additional_properties_forbidden', 'b is not a valid property of Object.'),
    ],
    [
      'additionalProperties schema',
      { a: '1', b: 'x' },
      { type: 'object', additionalProperties: { type: 'integer' } },
      type('x[b]', 'integer'),
    ],
    [
      'additionalProperties schema sanitises',
      { a: '1' },
      { type: 'object', additionalProperties: { type: 'integer' } },
      ok({ a: 1 }),
    ],
    [
      'additionalProperties true',
      { a: 1 },
      { type: 'object', properties: {}, additionalProperties: true },
      ok({ a: 1 }),
    ],
    [
      'patternProperties',
      { id_1: '5', other: 'x' },
      { type: 'object', patternProperties: { '^id_': { type: 'integer' } } },
      ok({ id_1: 5, other: 'x' }),
    ],
    [
      'patternProperties error',
      { id_1: 'x' },
      { type: 'object', patternProperties: { '^id_': { type: 'integer' } } },
      type('x[id_1]', 'integer'),
    ],
    [
      'patternProperties before additionalProperties',
      { id_1: '5' },
      { type: 'object', patternProperties: { '^id_': { type: 'integer' } }, additionalProperties: false },
      ok({ id_1: 5 }),
    ],
    [
      'patternProperties miss → additionalProperties false',
      { zz: '5' },
      { type: 'object', patternProperties: { '^id_': { type: 'integer' } }, additionalProperties: false },
      err('rest_additional_properties_forbidden', 'zz is not a valid property of Object.'),
    ],
    [
      'minProperties',
      { a: 1 },
      { type: 'object', minProperties: 2 },
      err('rest_too_few_properties', 'x must contain at least 2 properties.'),
    ],
    [
      'minProperties singular',
      {},
      { type: 'object', minProperties: 1 },
      err('rest_too_few_properties', 'x must contain at least 1 property.'),
    ],
    [
      'maxProperties',
      { a: 1, b: 2 },
      { type: 'object', maxProperties: 1 },
      err('rest_too_many_properties', 'x must contain at most 1 property.'),
    ],
    [
      'maxProperties plural',
      { a: 1, b: 2, c: 3 },
      { type: 'object', maxProperties: 2 },
      err('rest_too_many_properties', 'x must contain at most 2 properties.'),
    ],
    [
      'required before properties',
      { n: 'a' },
      { type: 'object', required: ['m'], properties: { n: { type: 'integer' } } },
      err('rest_property_required', 'm is a required property of x.'),
    ],
    [
      '__proto__ key stays a plain property',
      JSON.parse('{"__proto__": {"polluted": 1}}'),
      { type: 'object' },
      ok(JSON.parse('{"__proto__": {"polluted": 1}}')),
    ],
  ]);
  test('sanitising drops extra keys only with additionalProperties false', () => {
    const schema: ArgSchema = { type: 'object', properties: { a: { type: 'integer' } }, additionalProperties: false };
    assert.deepEqual(sanitizeValue({ a: '1', b: 2 }, schema, 'x'), { a: 1 });
    assert.deepEqual(sanitizeValue({ a: '1', b: 2 }, { type: 'object', properties: { a: { type: 'integer' } } }, 'x'), {
      a: 1,
      b: 2,
    });
  });
  test('a __proto__ key does not change the prototype of the result', () => {
    const result = checkValue(JSON.parse('{"__proto__": {"polluted": 1}}'), { type: 'object' }, 'x');
    assert.ok(result.ok);
    assert.equal(Object.getPrototypeOf(result.value), Object.prototype);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });
});

describe('enum', () => {
  run([
    [
      'one of three',
      'x',
      { type: 'string', enum: ['view', 'embed', 'edit'] },
      err('rest_not_in_enum', 'context is not one of view, embed, and edit.', null),
      'context',
    ],
    [
      'two values',
      'x',
      { type: 'string', enum: ['asc', 'desc'] },
      err('rest_not_in_enum', 'order is not one of asc and desc.'),
      'order',
    ],
    ['one value', 'x', { type: 'string', enum: ['only'] }, err('rest_not_in_enum', 'x is not only.')],
    [
      'case-sensitive',
      'VIEW',
      { type: 'string', enum: ['view', 'edit'] },
      err('rest_not_in_enum', 'x is not one of view and edit.'),
    ],
    ['match', 'edit', { type: 'string', enum: ['view', 'edit'] }, ok('edit')],
    ['value sanitised before comparing', '2', { type: 'integer', enum: [1, 2] }, ok(2)],
    ['integer equals float of same value', '2', { type: 'integer', enum: [2.0, 3.5] }, ok(2)],
    ['number enum', '3.5', { type: 'number', enum: [2, 3.5] }, ok(3.5)],
    [
      'strict: "1" is not 1',
      '1',
      { type: 'string', enum: [1, 2] },
      err('rest_not_in_enum', 'x is not one of 1 and 2.'),
    ],
    [
      'non-scalars JSON-encoded',
      'x',
      { enum: [[1, 'a/b'], { k: 'é' }, null, true, false, 1.5] },
      err('rest_not_in_enum', 'x is not one of [1,"a\\/b"], {"k":"\\u00e9"}, null, 1, , and 1.5.'),
    ],
    ['arrays compared element-wise', ['a', 'b'], { type: 'array', enum: [['a', 'b'], ['c']] }, ok(['a', 'b'])],
    [
      'arrays compared element-wise (order matters)',
      ['b', 'a'],
      { type: 'array', enum: [['a', 'b']] },
      err('rest_not_in_enum', 'x is not ["a","b"].'),
    ],
    ['objects compared by key', { b: 2, a: 1 }, { type: 'object', enum: [{ a: 1, b: 2 }] }, ok({ b: 2, a: 1 })],
    ['boolean enum after sanitising', 'false', { type: 'boolean', enum: [false] }, ok(false)],
    ['enum checked after type', 'abc', { type: 'integer', enum: [1] }, type('x', 'integer')],
    ['empty enum is ignored', 'abc', { type: 'string', enum: [] }, ok('abc')],
  ]);
});

describe('formats', () => {
  const f = (format: ArgSchema['format']): ArgSchema => ({ type: 'string', format });
  run([
    // date-time
    ['date-time with T', '2024-05-01T10:20:30', f('date-time'), ok('2024-05-01T10:20:30')],
    ['date-time with space and Z', '2024-05-01 10:20:30Z', f('date-time'), ok('2024-05-01 10:20:30Z')],
    ['date-time lower-case t', '2024-05-01t10:20:30', f('date-time'), ok('2024-05-01t10:20:30')],
    [
      'date-time fraction and offset',
      '2024-05-01T10:20:30.123+02:00',
      f('date-time'),
      ok('2024-05-01T10:20:30.123+02:00'),
    ],
    ['date-time short offset', '2024-05-01T10:20:30-05', f('date-time'), ok('2024-05-01T10:20:30-05')],
    ['date-time without seconds', '2024-05-01T10:20', f('date-time'), err('rest_invalid_date', 'Invalid date.', null)],
    ['date only', '2024-05-01', f('date-time'), err('rest_invalid_date', 'Invalid date.')],
    ['month 13', '2024-13-01T00:00:00', f('date-time'), err('rest_invalid_date', 'Invalid date.')],
    ['hour 25', '2024-01-01T25:00:00', f('date-time'), err('rest_invalid_date', 'Invalid date.')],
    ['Feb 31 overflows but parses', '2024-02-31T00:00:00', f('date-time'), ok('2024-02-31T00:00:00')],
    [
      'date-time sanitised as text field',
      ' 2024-05-01T10:20:30 ',
      f('date-time'),
      err('rest_invalid_date', 'Invalid date.'),
    ],
    // email
    ['email', 'a.b+c@example.com', f('email'), ok('a.b+c@example.com')],
    ['email too short', 'a@b.c', f('email'), err('rest_invalid_email', 'Invalid email address.', null)],
    ['email @ first', '@example.com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    ['email bad local char', 'a b@example.com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    ['email one label', 'user@localhost', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    ['email ..', 'user@example..com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    ['email leading dot', 'user@.example.com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    ['email hyphen label edge', 'user@-example.com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    [
      'email underscore in domain',
      'user@ex_ample.com',
      f('email'),
      err('rest_invalid_email', 'Invalid email address.'),
    ],
    ['email umlaut domain', 'user@exämple.com', f('email'), err('rest_invalid_email', 'Invalid email address.')],
    // ip
    ['ipv4', '192.168.0.1', f('ip'), ok('192.168.0.1')],
    ['ipv4 octet > 255', '256.1.1.1', f('ip'), err('rest_invalid_ip', 'ip is not a valid IP address.', null), 'ip'],
    ['ipv4 three octets', '1.2.3', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    ['ipv6 loopback', '::1', f('ip'), ok('::1')],
    ['ipv6 full', '2001:0db8:85a3:0000:0000:8a2e:0370:7334', f('ip'), ok('2001:0db8:85a3:0000:0000:8a2e:0370:7334')],
    ['ipv6 compressed', '2001:db8::8a2e:370:7334', f('ip'), ok('2001:db8::8a2e:370:7334')],
    ['ipv6 mapped ipv4', '::ffff:192.0.2.1', f('ip'), ok('::ffff:192.0.2.1')],
    ['ipv6 unspecified', '::', f('ip'), ok('::')],
    ['ipv6 two ::', '1::2::3', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    ['ipv6 group too long', '12345::1', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    ['ipv6 too many groups', '1:2:3:4:5:6:7::8:9', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    ['ipv6 non-hex', '::g', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    ['ip with zone id', 'fe80::1%eth0', f('ip'), err('rest_invalid_ip', 'x is not a valid IP address.')],
    // uuid
    ['uuid', '123e4567-e89b-12d3-a456-426614174000', f('uuid'), ok('123e4567-e89b-12d3-a456-426614174000')],
    ['uuid any version', '00000000-0000-0000-0000-000000000000', f('uuid'), ok('00000000-0000-0000-0000-000000000000')],
    [
      'uuid upper-case',
      '123E4567-E89B-12D3-A456-426614174000',
      f('uuid'),
      err('rest_invalid_uuid', 'id is not a valid UUID.', null),
      'id',
    ],
    [
      'uuid without dashes',
      '123e4567e89b12d3a456426614174000',
      f('uuid'),
      err('rest_invalid_uuid', 'x is not a valid UUID.'),
    ],
    // hex-color
    ['hex 3', '#fff', f('hex-color'), ok('#fff')],
    ['hex 6', '#A0b1C2', f('hex-color'), ok('#A0b1C2')],
    ['hex 4 digits', '#ffff', f('hex-color'), err('rest_invalid_hex_color', 'Invalid hex color.', null)],
    ['hex without #', 'ffffff', f('hex-color'), err('rest_invalid_hex_color', 'Invalid hex color.')],
    ['hex empty', '', f('hex-color'), err('rest_invalid_hex_color', 'Invalid hex color.')],
    // not validated, only sanitised
    ['uri adds http://', 'example.com/a b', f('uri'), ok('http://example.com/a%20b')],
    ['uri keeps https', 'https://example.com/?a=1&b=2#x', f('uri'), ok('https://example.com/?a=1&b=2#x')],
    ['uri relative path', '/path?q=1', f('uri'), ok('/path?q=1')],
    ['uri fragment', '#top', f('uri'), ok('#top')],
    ['uri query', '?a=1', f('uri'), ok('?a=1')],
    ['uri javascript:', 'javascript:alert(1)', f('uri'), ok('')],
    ['uri data:', 'data:text/html;base64,PHNjcmlwdD4=', f('uri'), ok('')],
    ['uri vbscript:', 'vbscript:msgbox(1)', f('uri'), ok('')],
    ['uri scheme with entity tab', 'jav&#x09;ascript:alert(1)', f('uri'), ok('')],
    ['uri upper-case javascript:', '  JaVaScRiPt:alert(1)', f('uri'), ok('')],
    ['uri without colon is a host name', 'javascript&#58;alert(1)', f('uri'), ok('http://javascript&#58;alert(1)')],
    ['uri strips disallowed characters', 'http://exa<mple>.com/"x"', f('uri'), ok('http://example.com/x')],
    [
      'uri removes encoded newlines',
      'http://example.com/%0d%0aSet-Cookie',
      f('uri'),
      ok('http://example.com/Set-Cookie'),
    ],
    ['uri mailto keeps %0A', 'mailto:a@example.com?body=a%0Ab', f('uri'), ok('mailto:a@example.com?body=a%0Ab')],
    ['uri brackets encoded outside host', 'http://[::1]:8080/a[0]', f('uri'), ok('http://[::1]:8080/a%5B0%5D')],
    ['uri php file not prefixed', 'index.php?x=1', f('uri'), ok('index.php?x=1')],
    ['uri non-ASCII kept', 'https://example.com/straße', f('uri'), ok('https://example.com/straße')],
    ['uri empty', '', f('uri'), ok('')],
    ['uri allowed scheme lowercased', 'MAILTO:a@example.com', f('uri'), ok('mailto:a@example.com')],
    ['text-field cleanup', '  a\t\tb\n<b>c</b> %41d  ', f('text-field'), ok('a b c d')],
    ['textarea keeps newlines', ' a\n\nb <i>c</i> ', f('textarea-field'), ok('a\n\nb c')],
    ['email sanitised as text field', 'a@example.com', f('email'), ok('a@example.com')],
    ['ip sanitised as text field', '::1', f('ip'), ok('::1')],
    // format applies to absent or unknown types, not to other types
    ['format without type', 'nope', { format: 'uuid' }, err('rest_invalid_uuid', 'x is not a valid UUID.')],
    ['format ignored for integer', '5', { type: 'integer', format: 'uuid' }, ok(5)],
    [
      'format with multi-type resolving to string',
      'nope',
      { type: ['null', 'string'], format: 'hex-color' },
      err('rest_invalid_hex_color', 'Invalid hex color.'),
    ],
    ['format with multi-type resolving to null', null, { type: ['null', 'string'], format: 'hex-color' }, ok(null)],
    [
      'format without type, non-string value',
      5,
      { format: 'hex-color' },
      err('rest_invalid_hex_color', 'Invalid hex color.'),
    ],
  ]);
});

describe('text-field cleanup (sanitize_text_field)', () => {
  const cases: [string, string, boolean?][] = [
    ['<p>Hello</p> <b>World</b>', 'Hello World'],
    ['a < b', 'a &lt; b'], // unclosed: escaped
    ['a < b >', 'a < b >'], // `<` followed by whitespace is not a tag for strip_tags
    ['a <b', 'a &lt;b'], // an unclosed tag is escaped
    ['x<y', 'x&lt;y'],
    ['1 <2> 3', '1 3'],
    ['<script>alert(1)</script>text', 'text'],
    ['<STYLE>p{}</style>text', 'text'],
    ['<!-- comment -->text', 'text'],
    ['a%41b', 'ab'],
    ['%%4141', ''],
    ['50%', '50%'],
    ['100%zz', '100%zz'],
    ['a %20 b', 'a b'],
    ['\u0000a\u0000', 'a'],
    ['a\r\n\tb', 'a b'],
    ['a\r\n\tb', 'a\r\n\tb', true],
    ['<a href="x>y">link</a>', 'link'],
    ['tom & jerry', 'tom & jerry'],
    ['\uD800broken', ''], // invalid UTF-8 / lone surrogate → empty
  ];
  for (const [input, expected, keepNewlines] of cases) {
    test(JSON.stringify(input), () => assert.equal(sanitizeTextField(input, keepNewlines), expected));
  }
  test('non-scalars become ""', () => {
    assert.equal(sanitizeTextField(['a']), '');
    assert.equal(sanitizeTextField({ a: 1 }), '');
  });
  test('scalars are cast to strings', () => {
    assert.equal(sanitizeTextField(5), '5');
    assert.equal(sanitizeTextField(true), '1');
    assert.equal(sanitizeTextField(null), '');
  });
  test('linear on hostile input', () => {
    const hostile = '%'.repeat(50_000) + '41'.repeat(50_000) + '<script>'.repeat(20_000) + '<a '.repeat(20_000);
    assert.equal(typeof sanitizeTextField(hostile), 'string');
  });
});

describe('URL sanitiser', () => {
  test('non-strings', () => {
    assert.equal(sanitizeUrl(null), '');
    assert.equal(sanitizeUrl(['x']), '');
  });
  test('feed: wrapping an allowed URL', () =>
    assert.equal(sanitizeUrl('feed:http://example.com/'), 'feed:http://example.com/'));
  test('nested bad scheme inside feed:', () => assert.equal(sanitizeUrl('feed:javascript:alert(1)'), ''));
  test('scheme-relative', () => assert.equal(sanitizeUrl('//example.com/x'), '//example.com/x'));
  test('whitespace trimmed on the left, spaces encoded', () =>
    assert.equal(sanitizeUrl('  http://a.com/x y'), 'http://a.com/x%20y'));
});

describe('anyOf / oneOf', () => {
  const slugOrId: ArgSchema = {
    anyOf: [
      { type: 'string', pattern: '^[a-z]+$' },
      { type: 'integer', minimum: 5 },
    ],
  };
  const titled: ArgSchema = {
    anyOf: [
      { type: 'string', title: 'Slug', pattern: '^[a-z]+$' },
      { type: 'integer', title: 'ID', minimum: 5 },
    ],
  };
  run([
    ['anyOf first match', 'abc', slugOrId, ok('abc')],
    ['anyOf sanitises with the matching sub-schema', 7, { anyOf: [{ type: 'string' }, { type: 'integer' }] }, ok(7)],
    ['anyOf second match sanitised', '7', { anyOf: [{ type: 'boolean' }, { type: 'integer' }] }, ok(7)],
    [
      'anyOf one non-type error left',
      'ABC',
      slugOrId,
      err(
        'rest_no_matching_schema',
        'x does not match the expected format. Reason: x does not match pattern ^[a-z]+$.',
        { position: 0 },
      ),
    ],
    [
      'anyOf one non-type error left, titled',
      'ABC',
      titled,
      err('rest_no_matching_schema', 'x is not a valid Slug. Reason: x does not match pattern ^[a-z]+$.', {
        position: 0,
      }),
    ],
    [
      'anyOf no match, untitled',
      true,
      slugOrId,
      err('rest_no_matching_schema', 'x does not match any of the expected formats.', null),
    ],
    ['anyOf no match, all titled', true, titled, err('rest_no_matching_schema', 'x is not a valid Slug and ID.', null)],
    [
      'anyOf several errors, one untitled',
      '3',
      {
        anyOf: [
          { type: 'string', title: 'Slug', pattern: '^[a-z]+$' },
          { type: 'integer', minimum: 5 },
        ],
      },
      err('rest_no_matching_schema', 'x does not match any of the expected formats.'),
    ],
    [
      'anyOf three titles',
      null,
      {
        anyOf: [
          { type: 'string', title: 'A' },
          { type: 'integer', title: 'B' },
          { type: 'array', title: 'C' },
        ],
      },
      err('rest_no_matching_schema', 'x is not a valid A, B, and C.'),
    ],
    [
      'one candidate error left after dropping type errors',
      '3',
      { anyOf: [{ type: 'boolean' }, { type: 'integer', minimum: 5 }] },
      err(
        'rest_no_matching_schema',
        'x does not match the expected format. Reason: x must be greater than or equal to 5',
        { position: 1 },
      ),
    ],
    [
      'single sub-schema: reason with title',
      'A',
      { anyOf: [{ type: 'string', title: 'Slug', pattern: '^[a-z]+$' }] },
      err('rest_no_matching_schema', 'x is not a valid Slug. Reason: x does not match pattern ^[a-z]+$.', {
        position: 0,
      }),
    ],
    [
      'single sub-schema type error kept',
      5,
      { anyOf: [{ type: 'string' }] },
      err('rest_no_matching_schema', 'x does not match the expected format. Reason: x is not of type string.', {
        position: 0,
      }),
    ],
    [
      'sub-schemas inherit the parent type',
      'abc',
      { type: 'string', anyOf: [{ minLength: 5 }, { pattern: '^a' }] },
      ok('abc'),
    ],
    [
      'nested type errors are not dropped',
      { a: 'x' },
      { anyOf: [{ type: 'object', properties: { a: { type: 'integer' } } }, { type: 'string' }] },
      err('rest_no_matching_schema', 'x does not match the expected format. Reason: x[a] is not of type integer.', {
        position: 0,
      }),
    ],
    [
      'object candidates: most shared properties wins',
      { b: 'x', c: 'y' },
      {
        anyOf: [
          { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
          { type: 'object', title: 'BC', properties: { b: { type: 'integer' }, c: { type: 'string' } } },
        ],
      },
      err('rest_no_matching_schema', 'x is not a valid BC. Reason: x[b] is not of type integer.', { position: 1 }),
    ],
    ['oneOf exactly one', 'abc', { oneOf: [{ type: 'string' }, { type: 'integer' }] }, ok('abc')],
    [
      'oneOf several untitled',
      5,
      { oneOf: [{ type: 'integer' }, { type: 'number' }] },
      err('rest_one_of_multiple_matches', 'x matches more than one of the expected formats.', { positions: [0, 1] }),
    ],
    [
      'oneOf several titled',
      5,
      {
        oneOf: [
          { type: 'integer', title: 'A' },
          { type: 'string', title: 'S' },
          { type: 'number', title: 'B' },
        ],
      },
      err('rest_one_of_multiple_matches', 'x matches A and B, but should match only one.', { positions: [0, 2] }),
    ],
    [
      'oneOf no match',
      true,
      {
        oneOf: [
          { type: 'integer', title: 'A' },
          { type: 'string', title: 'B' },
        ],
      },
      err('rest_no_matching_schema', 'x is not a valid A and B.'),
    ],
    [
      'combining errors keep nested names',
      [{ id: 'x' }],
      {
        type: 'array',
        items: { anyOf: [{ type: 'integer' }, { type: 'object', properties: { id: { type: 'integer' } } }] },
      },
      err(
        'rest_no_matching_schema',
        'x[0] does not match the expected format. Reason: x[0][id] is not of type integer.',
        { position: 1 },
      ),
    ],
    [
      'anyOf then type checks of the parent',
      'abcdef',
      { type: 'string', maxLength: 3, anyOf: [{ pattern: 'a' }] },
      err('rest_too_long', 'x must be at most 3 characters long.'),
    ],
  ]);
});

describe('keys that are not schema keywords here', () => {
  run([
    [
      'description, default and required: true ignored',
      '5',
      { type: 'integer', description: { en: 'a', de: 'b' }, default: 1, required: true },
      ok(5),
    ],
    [
      'validate/sanitize callbacks ignored',
      'a',
      { type: 'string', validate: () => 'never', sanitize: () => 'never' },
      ok('a'),
    ],
  ]);
});

describe('API shape', () => {
  test('validateValue returns null for valid values', () => {
    assert.equal(validateValue('5', { type: 'integer' }, 'x'), null);
  });
  test('validateValue returns the error', () => {
    assert.deepEqual(
      { ...validateValue('a', { type: 'integer' }, 'page') },
      { code: 'rest_invalid_type', message: 'page is not of type integer.', data: { param: 'page' } },
    );
  });
  test('sanitizeValue does not validate', () => {
    assert.equal(sanitizeValue('abc', { type: 'integer' }, 'x'), 0);
    assert.equal(sanitizeValue('12abc', { type: 'integer' }, 'x'), 12);
    assert.equal(sanitizeValue('5.9', { type: 'integer' }, 'x'), 5);
    assert.equal(sanitizeValue('-0.5', { type: 'integer' }, 'x'), 0);
    assert.equal(sanitizeValue('yes', { type: 'boolean' }, 'x'), true);
    assert.equal(sanitizeValue('', { type: 'boolean' }, 'x'), false);
    assert.equal(sanitizeValue(5, { type: 'string' }, 'x'), '5');
    assert.equal(sanitizeValue(null, { type: 'string' }, 'x'), '');
    assert.deepEqual(sanitizeValue(null, { type: 'array' }, 'x'), []);
    assert.deepEqual(sanitizeValue('abc', { type: 'object' }, 'x'), {});
    assert.equal(sanitizeValue('x', { type: 'null' }, 'x'), null);
    assert.equal(sanitizeValue('#abc', { type: 'string', format: 'hex-color' }, 'x'), '#abc');
    assert.equal(sanitizeValue('red', { type: 'string', format: 'hex-color' }, 'x'), '');
  });
  test('sanitizeValue reports failures as SchemaFailure', () => {
    const result = sanitizeValue(['1', '1.0'], { type: 'array', items: { type: 'integer' }, uniqueItems: true }, 'x');
    assert.ok(isSchemaFailure(result));
    assert.equal(result.code, 'rest_duplicate_items');
    const anyOf = sanitizeValue(true, { anyOf: [{ type: 'string' }] }, 'x');
    assert.ok(isSchemaFailure(anyOf));
  });
  test('checkValue errors are plain objects', () => {
    const result = checkValue(['1', '01'], { type: 'array', items: { type: 'integer' }, uniqueItems: true }, 'x');
    assert.ok(!result.ok);
    assert.deepEqual(result.error, { code: 'rest_duplicate_items', message: 'x has duplicate items.', data: null });
  });
});

describe('hostile input', () => {
  test('very deep nesting is refused, not a stack overflow', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const result = checkValue(deep, { type: 'array', uniqueItems: true }, 'x');
    assert.ok(!result.ok);
    assert.equal(result.error.code, 'rest_invalid_param');
  });
  test('nesting up to the limit is fine', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100; i++) deep = [deep];
    assert.ok(checkValue([deep, deep], { type: 'array' }, 'x').ok);
    const unique = checkValue([deep, deep], { type: 'array', uniqueItems: true }, 'x');
    assert.ok(!unique.ok);
  });
  test('huge and odd numbers', () => {
    assert.ok(!checkValue('1' + '0'.repeat(400), { type: 'integer' }, 'x').ok);
    assert.ok(!checkValue('NaN', { type: 'number' }, 'x').ok);
    assert.ok(!checkValue('Infinity', { type: 'number' }, 'x').ok);
    assert.ok(!checkValue(Number.NaN, { type: 'number' }, 'x').ok);
    assert.deepEqual(checkValue('9'.repeat(20), { type: 'integer', maximum: 10 }, 'x'), {
      ok: false,
      error: { code: 'rest_out_of_bounds', message: 'x must be less than or equal to 10', data: null },
    });
    assert.equal(checkValue('1e308', { type: 'number', minimum: 1e300 }, 'x').ok, true);
  });
  test('very long strings', () => {
    const long = 'a'.repeat(2_000_000);
    assert.equal(checkValue(long, { type: 'string', maxLength: 10 }, 'x').ok, false);
    assert.equal(checkValue(long, { type: 'integer' }, 'x').ok, false);
    assert.equal(checkValue(long + ',b', { type: 'array', items: { type: 'string' } }, 'x').ok, true);
  });
  test('NUL bytes', () => {
    assert.deepEqual(checkValue('a\0b', { type: 'string', format: 'text-field' }, 'x'), { ok: true, value: 'a\0b' });
    assert.equal(checkValue('\0', { type: 'boolean' }, 'x').ok, false);
  });
  test('odd JavaScript values', () => {
    for (const value of [undefined, () => 1, new Date(0), Symbol('s'), 10n, new Map(), Object.create(null)]) {
      assert.doesNotThrow(() => checkValue(value, { type: 'object' }, 'x'));
      assert.doesNotThrow(() => checkValue(value, { type: ['array', 'string'], format: 'uri' }, 'x'));
      assert.doesNotThrow(() => checkValue(value, { format: 'date-time' }, 'x'));
    }
  });
  test('malformed schemas do not throw', () => {
    const schemas = [
      { type: 5 },
      { type: 'object', properties: 3 },
      { type: 'array', items: 'x' },
      { enum: 'abc' },
      { anyOf: 'x' },
      { type: 'string', pattern: 5 },
      { type: 'integer', minimum: 'abc' },
      { type: [] },
      { type: ['foo'] },
    ];
    for (const schema of schemas) assert.doesNotThrow(() => checkValue('1', schema as unknown as ArgSchema, 'x'));
  });
});

describe('PCRE translation', () => {
  const matches: [string, string, boolean][] = [
    ['^[a-z_]+$', 'abc_d', true],
    ['^[a-z_]+$', 'abc\n', true], // PHP's `$` matches before a final newline
    ['^[a-z_]+$', 'abc\n\n', false],
    ['^abc\\z', 'abc\n', false],
    ['\\Aabc', 'xabc', false],
    ['^(?P<id>\\d+)-(?P=id)$', '12-12', true],
    ['^[\\w\\-.]+$', 'a-b.c', true],
    ['^\\x{e4}$', 'ä', true],
    ['(?i)^ABC$', 'abc', true],
    ['^a.c$', 'a\rc', true], // `.` matches everything but \n
    ['^a.c$', 'a\nc', false],
    ['^[[:alpha:]]+$', 'Größe', true],
    ['^\\p{Lu}', 'Ä', true],
    ['^a{2}$', 'aa', true],
    ['^a{x}$', 'a{x}', true], // a brace that is no quantifier is a literal
    ['^[]a]+$', ']a', true],
    ['\\Q.*\\E', 'a.*b', true],
    ['\\Q.*\\E', 'ab', false],
    ['^\\d+$', '١٢٣', true], // Unicode digits with /u
    ['^a++$', 'aaa', true],
    ['^(?>a+)b', 'aab', true],
    ['\\h', 'a b', true],
    ['^a\\@b$', 'a@b', true],
  ];
  for (const [pattern, value, expected] of matches) {
    test(`${pattern} ~ ${JSON.stringify(value)}`, () => assert.equal(matchesPattern(pattern, value), expected));
  }
  test('unsupported or invalid patterns compile to null', () => {
    for (const pattern of ['(', '[a-', '(?R)', 'a\\K', '(?<=a', '*']) assert.equal(compilePcre(pattern), null, pattern);
  });
  test('lone surrogates never match', () => assert.equal(matchesPattern('.', '\uD800'), false));
});
