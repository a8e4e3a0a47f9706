// Property (issue 25): no template can obtain or call a function value. Templates are generated
// from the grammar of the sandbox's expressions and tags, with names drawn from the members of
// Object/Function/Array/String.prototype and from the sandbox's (and Twig.js's) own names. Every
// render must end in text or a TemplateError; its text never holds a function's source; and no
// function outside the allow-list runs meanwhile: builtins the sandbox never needs, and a canary
// planted on each prototype, are spied on (this file's process only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { renderTemplate } from '../../src/namespaces/sched/twig.ts';
import { TemplateError } from '../../src/namespaces/sched/twig-errors.ts';
import { ALLOWED_FILTERS, ALLOWED_FUNCTIONS, ALLOWED_TESTS } from '../../src/namespaces/sched/twig-policy.ts';

const SEED = 25;
const FUNCTION_SOURCE = /\[native code\]|function\s*[\w$]*\s*\(|=>/;
const PROTOTYPES = [Object.prototype, Function.prototype, Array.prototype, String.prototype] as const;

/** Builtins that a render has no business calling, by prototype. */
const SPIED: [object, string[]][] = [
  [
    Object.prototype,
    [
      '__defineGetter__',
      '__defineSetter__',
      '__lookupGetter__',
      '__lookupSetter__',
      'isPrototypeOf',
      'propertyIsEnumerable',
      'toLocaleString',
    ],
  ],
  [Function.prototype, ['toString']],
  [Array.prototype, ['copyWithin', 'fill', 'toLocaleString', 'flatMap', 'findLast', 'toSorted', 'with']],
  [String.prototype, ['anchor', 'big', 'bold', 'fontcolor', 'italics', 'link', 'localeCompare', 'normalize', 'sub']],
];
const CANARY = 'sandboxCanary';

let calls: string[] = [];
let watching = false;
function spy(target: object, name: string): void {
  const original = (target as Record<string, unknown>)[name] as (...a: unknown[]) => unknown;
  Object.defineProperty(target, name, {
    configurable: true,
    writable: true,
    enumerable: false,
    value: function (this: unknown, ...args: unknown[]) {
      if (watching) calls.push(name);
      return original.apply(this, args);
    },
  });
}
for (const [target, names] of SPIED) for (const name of names) spy(target, name);
for (const proto of PROTOTYPES) {
  Object.defineProperty(proto, CANARY, {
    configurable: true,
    writable: true,
    enumerable: false,
    value: () => 'canary',
  });
  spy(proto, CANARY);
}

const identifier = (n: string) => /^[A-Za-z_]\w*$/.test(n);
const PROTOTYPE_NAMES = [...new Set(PROTOTYPES.flatMap((p) => Object.getOwnPropertyNames(p)))].filter(identifier);
const SANDBOX_NAMES = [
  ...ALLOWED_FILTERS,
  ...ALLOWED_FUNCTIONS,
  ...ALLOWED_TESTS.filter(identifier),
  '_keys',
  '_self',
  '_context',
  '_charset',
  'loop',
  'parent',
  'tests',
  'filters',
  'functions',
  'filter',
  'test',
  'lib',
  'Markup',
  'twigMarkup',
  'Templates',
  'registry',
  'output',
  'expression',
  'Twig',
  'exports',
  'cache',
  'Error',
  'a',
  'l',
  's',
  'o',
];
const NAMES = [...PROTOTYPE_NAMES, ...SANDBOX_NAMES];
const TEST_NAMES = [...ALLOWED_TESTS, CANARY];
const CONTEXT = { a: { b: 'x', n: 2 }, l: [1, 'two', { c: 3 }], s: 'abc', o: {} };

const name = fc.constantFrom(...NAMES);
const quoted = name.map((n) => `'${n}'`);
/** Mostly the allowed names of a role (so that renders get past the static check), else any name. */
const roleName = (allowed: readonly string[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...allowed), weight: 3 }, { arbitrary: name, weight: 1 });
const filterName = roleName(ALLOWED_FILTERS);
const functionName = roleName(ALLOWED_FUNCTIONS);
const testName = roleName(TEST_NAMES);
const variable = roleName(Object.keys(CONTEXT));
const { expr } = fc.letrec<{ expr: string }>((tie) => {
  const e = tie('expr') as fc.Arbitrary<string>;
  return {
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      variable,
      quoted,
      fc.constantFrom('1', '0', '-1', "''", '[]', '{}', 'null'),
      fc.tuple(e, name).map(([x, n]) => `${x}.${n}`),
      fc.tuple(e, quoted).map(([x, k]) => `${x}[${k}]`),
      fc.tuple(e, quoted, quoted).map(([x, k1, k2]) => `${x}[(${k1} ~ ${k2})]`),
      fc.tuple(e, testName).map(([x, t]) => `(${x} is ${t})`),
      fc.tuple(e, testName, e).map(([x, t, y]) => `(${x} is not ${t}(${y}))`),
      fc.tuple(e, filterName).map(([x, f]) => `${x}|${f}`),
      fc.tuple(e, filterName, e).map(([x, f, y]) => `${x}|${f}(${y})`),
      fc.tuple(e, filterName, e, e).map(([x, f, y, z]) => `${x}|${f}(${y}, ${z})`),
      fc.tuple(functionName, e).map(([f, y]) => `${f}(${y})`),
      fc.tuple(quoted, e).map(([k, y]) => `{${k}: ${y}}`),
      fc.tuple(quoted, quoted, e).map(([k1, k2, y]) => `{(${k1} ~ ${k2}): ${y}}`),
      fc.tuple(e, e).map(([x, y]) => `[${x}, ${y}]`),
      fc.tuple(e, e).map(([x, y]) => `(${x} ~ ${y})`),
      fc.tuple(e, e).map(([x, y]) => `(${x} ?? ${y})`),
    ),
  };
});
const statement = fc.oneof(
  expr.map((x) => `{{ ${x} }}`),
  expr.map((x) => `{{ ${x}|join(',') }}`),
  fc.tuple(name, expr).map(([v, x]) => `{% set ${v} = ${x} %}{{ ${v} }}`),
  fc.tuple(name, expr).map(([v, x]) => `{% for ${v} in ${x} %}{{ ${v} }}{{ loop.parent }}{% endfor %}`),
  fc.tuple(expr, expr).map(([c, x]) => `{% if ${c} %}{{ ${x} }}{% endif %}`),
);
const template = fc.array(statement, { minLength: 1, maxLength: 3 }).map((parts) => parts.join(''));

test('no template can obtain or call a function value (property)', () => {
  // The spies work: a render that printed a function would be seen.
  watching = true;
  String(Object.prototype.hasOwnProperty);
  watching = false;
  assert.deepEqual(calls.splice(0), ['toString']);

  fc.assert(
    fc.property(template, (tpl) => {
      calls = [];
      let out = '';
      watching = true;
      try {
        out = renderTemplate(tpl, CONTEXT);
      } catch (err) {
        if (!(err instanceof TemplateError)) throw new Error(`not a TemplateError: ${String(err)}`);
        out = err.message.includes('[native code]') ? err.message : '';
      } finally {
        watching = false;
      }
      assert.doesNotMatch(out, FUNCTION_SOURCE, tpl);
      assert.deepEqual(calls, [], `${tpl} called ${calls.join(', ')}`);
    }),
    { seed: SEED, numRuns: 3000 },
  );
});

test("the issue's reproductions are among what the property covers", () => {
  for (const tpl of [
    '{% set t = 1 is valueOf %}{{ t.iterable }}',
    "{{ '__proto__' is __lookupGetter__ }}",
    "{{ 'abc'|replace({'a': (1 is valueOf).defined}) }}",
    `{{ s is ${CANARY} }}`,
  ]) {
    calls = [];
    watching = true;
    try {
      renderTemplate(tpl, CONTEXT);
      assert.fail(`${tpl} rendered`);
    } catch (err) {
      assert.ok(err instanceof TemplateError && /is not allowed/.test(err.message), `${tpl}: ${String(err)}`);
    } finally {
      watching = false;
    }
    assert.deepEqual(calls, [], tpl);
  }
});
