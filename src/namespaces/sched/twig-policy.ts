// The static policy check of a compiled template, before anything runs: only the allowed tags,
// tests, filters and functions, no method calls, no `_self` / `_context`, no forbidden keys.
import { TemplateError } from './twig-errors.ts';
import { isSafeKey } from './twig-sandbox.ts';

export const ALLOWED_TAGS = [
  'if',
  'else',
  'elseif',
  'endif',
  'for',
  'endfor',
  'set',
  'endset',
  'block',
  'endblock',
] as const;
export const ALLOWED_FILTERS = [
  'date',
  'trim',
  'join',
  'number_format',
  'escape',
  'e',
  'raw',
  'split',
  'length',
  'slice',
  'lower',
  'upper',
  'replace',
  'nl2br',
  'default',
  'capitalize',
  'title',
  'first',
  'last',
  'striptags',
  'url_encode',
  'abs',
  'round',
  'internationalize',
  'trans',
  'link',
] as const;
export const ALLOWED_FUNCTIONS = ['range', 'date', 'min', 'max', 'cycle'] as const;
/** Twig's tests (`x is defined`), without `constant` (it reads PHP constants). */
export const ALLOWED_TESTS = [
  'defined',
  'empty',
  'even',
  'odd',
  'iterable',
  'none',
  'null',
  'same as',
  'divisible by',
] as const;

const TAG_NAME: Record<string, string> = {
  'Twig.logic.type.if': 'if',
  'Twig.logic.type.elseif': 'elseif',
  'Twig.logic.type.else': 'else',
  'Twig.logic.type.endif': 'endif',
  'Twig.logic.type.for': 'for',
  'Twig.logic.type.endfor': 'endfor',
  'Twig.logic.type.set': 'set',
  'Twig.logic.type.setcapture': 'set',
  'Twig.logic.type.endset': 'endset',
  'Twig.logic.type.block': 'block',
  'Twig.logic.type.shortblock': 'block',
  'Twig.logic.type.endblock': 'endblock',
  'Twig.logic.type.filter': 'filter',
  'Twig.logic.type.endfilter': 'endfilter',
  'Twig.logic.type.apply': 'apply',
  'Twig.logic.type.endapply': 'endapply',
  'Twig.logic.type.do': 'do',
  'Twig.logic.type.extends': 'extends',
  'Twig.logic.type.use': 'use',
  'Twig.logic.type.include': 'include',
  'Twig.logic.type.spaceless': 'spaceless',
  'Twig.logic.type.endspaceless': 'endspaceless',
  'Twig.logic.type.macro': 'macro',
  'Twig.logic.type.endmacro': 'endmacro',
  'Twig.logic.type.import': 'import',
  'Twig.logic.type.from': 'from',
  'Twig.logic.type.embed': 'embed',
  'Twig.logic.type.endembed': 'endembed',
  'Twig.logic.type.with': 'with',
  'Twig.logic.type.endwith': 'endwith',
  'Twig.logic.type.deprecated': 'deprecated',
};

export function lineAt(source: string, offset: number | null): number | null {
  if (offset === null || offset < 0) return null;
  return source.slice(0, offset).split('\n').length;
}

export function checkTree(node: unknown, source: string, pos: { offset: number | null }): void {
  if (Array.isArray(node)) {
    for (const n of node) checkTree(n, source, pos);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const obj = node as Record<string, any>;
  const p = obj.position;
  if (p && typeof p.start === 'number') pos.offset = p.start;
  else if (p?.open && typeof p.open.start === 'number') pos.offset = p.open.start;
  const type = obj.type;
  const fail = (msg: string) => {
    throw new TemplateError('security', msg, lineAt(source, pos.offset));
  };
  if (typeof type === 'string') {
    if (type.startsWith('Twig.logic.type.')) {
      const tag = TAG_NAME[type] ?? type.slice('Twig.logic.type.'.length);
      if (!(ALLOWED_TAGS as readonly string[]).includes(tag)) fail(`Tag "${tag}" is not allowed.`);
    } else if (type === 'Twig.expression.type.filter') {
      if (!(ALLOWED_FILTERS as readonly string[]).includes(obj.value)) fail(`Filter "${obj.value}" is not allowed.`);
    } else if (type === 'Twig.expression.type._function') {
      if (!(ALLOWED_FUNCTIONS as readonly string[]).includes(obj.fn)) fail(`Function "${obj.fn}" is not allowed.`);
    } else if (type === 'Twig.expression.type.context') {
      fail('Access to "_context" is not allowed.');
    } else if (type === 'Twig.expression.type.variable') {
      if (obj.value === '_self' || obj.value === '_charset' || !isSafeKey(obj.value))
        fail(`Access to "${obj.value}" is not allowed.`);
    } else if (type === 'Twig.expression.type.key.period') {
      if (!isSafeKey(obj.key)) fail(`Access to "${obj.key}" is not allowed.`);
      if (obj.params) fail('Calling methods is not allowed.');
    } else if (type === 'Twig.expression.type.key.brackets') {
      if (obj.params) fail('Calling methods is not allowed.');
      const st = obj.stack;
      if (
        Array.isArray(st) &&
        st.length === 1 &&
        st[0]?.type === 'Twig.expression.type.string' &&
        !isSafeKey(st[0].value)
      )
        fail(`Access to "${st[0].value}" is not allowed.`);
    } else if (type === 'Twig.expression.type.parameter.end' && obj.expression === true) {
      fail('Calling methods is not allowed.');
    } else if (type === 'Twig.expression.type.test') {
      if (!(ALLOWED_TESTS as readonly string[]).includes(obj.filter)) fail(`Test "${obj.filter}" is not allowed.`);
    } else if (type === 'Twig.expression.type.slice') {
      // Twig.js reads named bounds (`s[a:b]`) straight from the context: whole numbers only.
      if (!obj.params.every((p: unknown) => typeof p === 'string' && /^-?\d*$/.test(p)))
        fail('Slice bounds must be whole numbers; use the slice filter for variables.');
    } else if (type === 'Twig.expression.type.operator.binary') {
      if (obj.value === 'matches') fail('The "matches" operator is not allowed.');
      if (obj.key !== undefined && !isSafeKey(obj.key)) fail(`Key "${obj.key}" is not allowed.`);
    }
  }
  if (obj.key !== undefined && type === 'Twig.logic.type.set' && !isSafeKey(obj.key))
    fail(`Setting "${obj.key}" is not allowed.`);
  if (
    type === 'Twig.logic.type.for' &&
    [obj.keyVar, obj.valueVar].some((v) => v !== undefined && v !== null && !isSafeKey(v))
  )
    fail('This loop variable name is not allowed.');
  for (const [k, v] of Object.entries(obj))
    if (k !== 'position' && k !== 'match' && v && typeof v === 'object') checkTree(v, source, pos);
}

/** Most tags a template may have. */
export const MAX_TAGS = 2000;
/**
 * Most a template may cost to compile: Twig.js's compile time grows with the number of tags
 * times the template's length, plus the square of each tag's length; both are capped together.
 */
export const MAX_COMPILE_COST = 32_000_000;

/** Number of tags and their compile cost, in one pass (an unclosed tag runs to the end). */
export function measureTags(source: string): { tags: number; cost: number } {
  let tags = 0;
  let cost = 0;
  for (let i = source.indexOf('{'); i !== -1 && i < source.length - 1; i = source.indexOf('{', i + 1)) {
    const c = source[i + 1];
    if (c !== '{' && c !== '%' && c !== '#') continue;
    tags++;
    const close = source.indexOf(c === '{' ? '}}' : `${c}}`, i + 2);
    const end = close === -1 ? source.length : close + 2;
    cost += (end - i) ** 2;
    i = end - 1;
  }
  return { tags, cost: cost + tags * source.length };
}
