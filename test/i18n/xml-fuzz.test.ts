// Property tests: the XML checker never throws below its declared bounds, whatever it is given, and always answers in
// the libxml shape; the filter parsers answer with a value or a 400, never anything else.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { validateCustomXml } from '../../src/namespaces/i18n/xml-check.ts';
import { FilterError, parsePackageFilters, parseStringFilters } from '../../src/namespaces/i18n-st/filters.ts';

const KEYS = ['level', 'code', 'column', 'message', 'file', 'line'];
const pieces = fc.constantFrom(
  '<wpml-config>',
  '</wpml-config>',
  '<custom-types>',
  '</custom-types>',
  '<custom-type translate="1">',
  '</custom-type>',
  '<key name="a"/>',
  '<admin-texts>',
  '</admin-texts>',
  '<!DOCTYPE x>',
  '<!ENTITY e "x">',
  '&amp;',
  '&e;',
  '&',
  '<![CDATA[',
  ']]>',
  '<!--',
  '-->',
  '<?xml version="1.0"?>',
  '"',
  "'",
  '<',
  '>',
  '/>',
  ' ',
  '\n',
  'text',
  '\u0001',
  '&#0;',
  '<a b="1" b="2">',
  '</a>',
);

test('validateCustomXml never throws and always answers in the libxml shape', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.array(pieces, { maxLength: 40 }).map((p) => p.join('')),
      ),
      (input) => {
        const issues = validateCustomXml(input);
        assert.ok(Array.isArray(issues));
        for (const i of issues) {
          assert.deepEqual(Object.keys(i), KEYS);
          assert.ok([1, 2, 3].includes(i.level));
          assert.ok(Number.isInteger(i.line) && i.line >= 1);
          assert.ok(Number.isInteger(i.column));
          assert.ok(i.message.endsWith('\n'));
        }
      },
    ),
    { numRuns: 2000 },
  );
});

test('filter parsers return filters or throw a 400 FilterError', () => {
  const value = fc.oneof(
    fc.string({ maxLength: 20 }),
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(fc.string({ maxLength: 5 }), fc.integer())),
    fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 })),
  );
  const names = [
    'kind',
    'type',
    'source',
    'domain',
    'translationPriority',
    'title',
    'sourceLanguageCode',
    'targetLanguageCode',
    'translationStatuses',
    'limit',
    'offset',
    'sorting',
  ];
  fc.assert(
    fc.property(
      fc.dictionary(fc.constantFrom(...names), value),
      fc.constantFrom('en' as const, 'de' as const),
      (params, lang) => {
        for (const parse of [parseStringFilters, parsePackageFilters]) {
          try {
            parse(params, lang);
          } catch (err) {
            assert.ok(err instanceof FilterError, String(err));
            assert.equal(err.status, 400);
          }
        }
      },
    ),
    { numRuns: 2000 },
  );
});
