// The custom XML configuration of i18n/v1 (the reference's wpml-config.xml): checking it
// (well-formedness with a real XML parser, then the structure rules of reference plugins §3),
// storing it, and applying it — which post types, taxonomies, custom fields, admin texts,
// shortcodes and blocks are translatable. Admin texts become strings of the registry.
//
// Safety: no DTDs at all (DOCTYPE and ENTITY declarations are refused before parsing, so
// there is no external entity and no entity expansion), a 1 MiB size limit, and nesting,
// element and attribute limits checked before the tree is built. Every check before the parser is one
// linear pass (no backtracking scan), so a check costs time in proportion to the content.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { AppServices } from '../../site/services.ts';
import { RestError, type Lang } from '../../rest/types.ts';
import { MSG, fill } from '../../rest/messages.ts';
import { kvGet, kvGetJson, kvSet, registerString, translateString } from '../i18n-st/api.ts';

export const MAX_XML_BYTES = 1024 * 1024;
export const MAX_XML_DEPTH = 256;
/** Elements and attributes of one configuration: real ones have hundreds; parsing and checking cost per item. */
export const MAX_XML_ELEMENTS = 5_000;
export const MAX_XML_ATTRIBUTES = 5_000;
const MAX_ERRORS = 100;

/** One problem, in the shape of a libxml error (reference plugins §3). */
export interface XmlIssue {
  /** 1 warning, 2 error, 3 fatal. */
  level: 1 | 2 | 3;
  code: number;
  column: number;
  /** Ends with a newline, like libxml's messages. */
  message: string;
  file: string;
  line: number;
}

// libxml error numbers used for the matching problems.
const CODE = {
  internal: 1,
  documentEmpty: 4,
  documentEnd: 5,
  invalidChar: 9,
  undeclaredEntity: 26,
  attributeRedefined: 39,
  attributeWithoutValue: 41,
  entityRefNoName: 68,
  gtRequired: 73,
  tagNameMismatch: 76,
  tagNotFinished: 77,
  doctypeRefused: 94,
  schemaRoot: 1845,
  schemaTextNotAllowed: 1841,
  schemaEnum: 1840,
  schemaAttrNotAllowed: 1866,
  schemaAttrMissing: 1868,
  schemaElementNotExpected: 1871,
} as const;

function issue(level: 1 | 2 | 3, code: number, message: string, line: number, column: number): XmlIssue {
  return { level, code, column, message: message.endsWith('\n') ? message : `${message}\n`, file: '', line };
}

/** Line and column of offsets in `text`: the line starts are found once, then each lookup is a binary search. */
function positions(text: string): (index: number) => { line: number; column: number } {
  let starts: number[] | null = null;
  return (index) => {
    if (!starts) {
      starts = [0];
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
    }
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: index - starts[lo]! + 1 };
  };
}

const NON_MARKUP: readonly (readonly [string, string])[] = [['<!--', '-->'], ['<![CDATA[', ']]>'], ['<?', '?>']];

/**
 * Replaces comments, CDATA sections and processing instructions by spaces (offsets and newlines
 * kept); an unterminated one stays as it is (the validator reports it). One pass: a closing
 * delimiter found missing is not searched for again, so `<!--` × n costs n, not n².
 */
function maskNonMarkup(text: string): string {
  const unclosed = new Set<string>();
  let out = '';
  let copied = 0;
  for (let i = text.indexOf('<'); i !== -1; ) {
    const kind = NON_MARKUP.find(([open]) => text.startsWith(open, i));
    const end = kind && !unclosed.has(kind[1]) ? text.indexOf(kind[1], i + kind[0].length) : -1;
    if (kind && end === -1) unclosed.add(kind[1]);
    if (!kind || end === -1) {
      i = text.indexOf('<', i + 1);
      continue;
    }
    const after = end + kind[1].length;
    out += text.slice(copied, i) + text.slice(i, after).replace(/[^\n]/g, ' ');
    copied = after;
    i = text.indexOf('<', after);
  }
  return out + text.slice(copied);
}

interface TagToken {
  index: number;
  name: string;
  closing: boolean;
  selfClosing: boolean;
  /** After the closing `>`; -1 when the tag never ends. */
  end: number;
  /** Attributes, well-formed or not (each name after a space). */
  attributes: number;
}

const NOT_NAME = /[\s/>!?]/;

/**
 * The next tag of `masked` from `from`: `<name …>` or `</name>`, a `>` inside quotes not ending
 * it; null when there is none. A tag that never ends is returned with `end` -1: the scan stops
 * there, as scanning on from every later `<` would cost n² (the regular expression this replaces
 * did, and n³ on `<a<a<a…`).
 */
function nextTag(masked: string, from: number): TagToken | null {
  for (let i = masked.indexOf('<', from); i !== -1; i = masked.indexOf('<', i + 1)) {
    const closing = masked[i + 1] === '/';
    const nameStart = i + (closing ? 2 : 1);
    let k = nameStart;
    if (k >= masked.length || NOT_NAME.test(masked[k]!)) continue;
    while (k < masked.length && !NOT_NAME.test(masked[k]!)) k++;
    const name = masked.slice(nameStart, k);
    let attributes = 0;
    let afterSpace = false;
    while (k < masked.length && masked[k] !== '>') {
      const c = masked[k]!;
      const space = c === ' ' || c === '\t' || c === '\n' || c === '\r';
      if (afterSpace && !space && c !== '=' && c !== '/' && c !== '"' && c !== "'") attributes++;
      afterSpace = space;
      const close = c === '"' || c === "'" ? masked.indexOf(c, k + 1) : k;
      k = close === -1 ? masked.length : close + 1;
    }
    const end = k < masked.length ? k + 1 : -1;
    return { index: i, name: name.slice(0, 100), closing, selfClosing: end !== -1 && masked[k - 1] === '/', end, attributes };
  }
  return null;
}

export class XmlTooLargeError extends RestError {
  constructor(bytes: number, lang: Lang = 'en') {
    super(
      'i18n_xml_too_large',
      lang === 'de'
        ? `Die XML-Konfiguration ist ${bytes} Bytes groß; höchstens ${MAX_XML_BYTES} Bytes (1 MiB) sind erlaubt.`
        : `The XML configuration is ${bytes} bytes long; at most ${MAX_XML_BYTES} bytes (1 MiB) are accepted.`,
      413,
      { max_bytes: MAX_XML_BYTES },
    );
  }
}

const LIMIT_NAMES = { elements: { en: 'elements', de: 'Elemente' }, attributes: { en: 'attributes', de: 'Attribute' } } as const;

/** 422 for a configuration past MAX_XML_ELEMENTS or MAX_XML_ATTRIBUTES. */
export class XmlTooComplexError extends RestError {
  constructor(limit: keyof typeof LIMIT_NAMES, lang: Lang = 'en') {
    const max = limit === 'elements' ? MAX_XML_ELEMENTS : MAX_XML_ATTRIBUTES;
    super(
      'i18n_xml_too_complex',
      lang === 'de'
        ? `Die XML-Konfiguration hat mehr als ${max} ${LIMIT_NAMES[limit].de}; mehr sind nicht erlaubt.`
        : `The XML configuration has more than ${max} ${LIMIT_NAMES[limit].en}; no more are accepted.`,
      422,
      { limit, max },
    );
  }
}

/** Throws 400/413 for content that is not a string or is too large. */
export function checkContentParam(content: unknown, lang: Lang = 'en'): string {
  if (content === undefined || content === null) return '';
  if (typeof content !== 'string') {
    throw new RestError('rest_invalid_param', fill(MSG.invalidParams[lang], 'content'), 400, {
      params: { content: lang === 'de' ? 'content ist nicht vom Typ string.' : 'content is not of type string.' },
    });
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_XML_BYTES) throw new XmlTooLargeError(bytes, lang);
  return content;
}

// ---------------------------------------------------------------------------------------
// Structure rules: a hand-written subset of the reference's XSD (wpml-config.xsd).

interface ElementRule {
  /** Allowed attributes; a list restricts the values, null allows any value. */
  attrs?: Record<string, readonly string[] | null>;
  required?: string[];
  /** Allowed child elements; absent means none. */
  children?: string[];
  /** Whether non-whitespace text is allowed. */
  text?: boolean;
}

const B01 = ['0', '1'] as const;
const FIELD_TYPES = ['line', 'area', 'visual', 'link', 'media-url', 'media-ids', 'textarea'] as const;
const WIDGET_SECTIONS = ['elementor-widgets', 'beaver-builder-widgets', 'cornerstone-widgets', 'siteorigin-widgets'];
const FIELD_ATTRS: ElementRule['attrs'] = {
  action: ['translate', 'copy', 'copy-once', 'ignore'],
  style: ['line', 'textarea', 'visual'],
  label: null,
  group: null,
  encoding: null,
  translate_link_target: B01,
  convert_to_sticky: B01,
};

export const ROOT_ELEMENT = 'wpml-config';
const RULES: Record<string, ElementRule> = {
  [ROOT_ELEMENT]: {
    children: [
      'custom-types', 'taxonomies', 'custom-fields', 'custom-term-fields', 'custom-fields-texts', 'admin-texts', 'shortcodes',
      'gutenberg-blocks', ...WIDGET_SECTIONS, 'language-switcher-settings', 'built-with-page-builder',
    ],
  },
  'custom-types': { children: ['custom-type'] },
  'custom-type': { attrs: { translate: ['0', '1', '2'], 'display-as-translated': B01, automatic: B01 }, text: true },
  taxonomies: { children: ['taxonomy'] },
  taxonomy: { attrs: { translate: ['0', '1', '2'], 'display-as-translated': B01, automatic: B01 }, text: true },
  'custom-fields': { children: ['custom-field'] },
  'custom-field': { attrs: FIELD_ATTRS, required: ['action'], text: true },
  'custom-term-fields': { children: ['custom-term-field'] },
  'custom-term-field': { attrs: FIELD_ATTRS, required: ['action'], text: true },
  'custom-fields-texts': { children: ['key'] },
  'admin-texts': { children: ['key'] },
  key: { attrs: { name: null, 'search-method': ['wildcards', 'regex'], type: null, label: null }, required: ['name'], children: ['key'], text: true },
  shortcodes: { children: ['shortcode'] },
  shortcode: { children: ['tag', 'attributes'] },
  tag: { attrs: { encoding: null, 'encoding-condition': null, type: FIELD_TYPES, 'raw-html': B01, 'ignore-content': B01, label: null }, text: true },
  attributes: { children: ['attribute'] },
  attribute: { attrs: { type: FIELD_TYPES, encoding: null, label: null }, text: true },
  'gutenberg-blocks': { children: ['gutenberg-block'] },
  'gutenberg-block': { attrs: { type: null, translate: B01, label: null }, required: ['type'], children: ['xpath', 'key'] },
  xpath: { attrs: { type: FIELD_TYPES, label: null, encoding: null }, text: true },
  widget: { attrs: { name: null }, required: ['name'], children: ['conditions', 'fields', 'fields-in-item', 'integration-classes'] },
  conditions: { children: ['key'] },
  fields: { children: ['field'] },
  'fields-in-item': { attrs: { items_of: null }, required: ['items_of'], children: ['field'] },
  field: { attrs: { type: null, editor_type: ['LINE', 'AREA', 'VISUAL', 'LINK'], key_of: null, field_id: null }, text: true },
  'integration-classes': { children: ['integration-class'] },
  'integration-class': { text: true },
  'language-switcher-settings': { children: ['key'] },
  'built-with-page-builder': { text: true },
};
for (const s of WIDGET_SECTIONS) RULES[s] = { children: ['widget'] };

// ---------------------------------------------------------------------------------------
// Parsed tree

interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  text: string;
  index: number;
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  allowBooleanAttributes: false,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  processEntities: true,
  htmlEntities: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  captureMetaData: true,
});
const META = XMLParser.getMetaDataSymbol() as unknown as symbol;

type RawNode = Record<string, unknown> & { ':@'?: Record<string, string> };

function toTree(raw: RawNode[]): XNode[] {
  const out: XNode[] = [];
  for (const n of raw) {
    const name = Object.keys(n).find((k) => k !== ':@');
    if (!name || name === '#text') continue;
    const kids = (n[name] as RawNode[]) ?? [];
    const meta = (n as Record<symbol, { startIndex?: number }>)[META];
    out.push({
      name,
      attrs: { ...(n[':@'] ?? {}) },
      children: toTree(kids),
      text: kids.filter((k) => '#text' in k).map((k) => String(k['#text'])).join(''),
      index: meta?.startIndex ?? 0,
    });
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Checking

/** Lexical checks the validator leaves out: DTDs, depth, content outside the root, entities; past the element or attribute bound, throws 422. */
function lexicalIssues(content: string, lang: Lang): XmlIssue[] {
  const at = positions(content);
  const masked = maskNonMarkup(content);
  const dtd = /<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)\b/i.exec(masked);
  if (dtd) {
    const { line, column } = at(dtd.index);
    return [issue(3, CODE.doctypeRefused, `${dtd[1]!.toUpperCase()} declarations are not allowed: the configuration may not contain a DTD or entity declarations`, line, column)];
  }
  const badChar = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(content);
  if (badChar) {
    const { line, column } = at(badChar.index);
    return [issue(3, CODE.invalidChar, `PCDATA invalid Char value ${badChar[0].charCodeAt(0)}`, line, column)];
  }
  const fatal = (code: number, message: string, index: number): XmlIssue[] => {
    const { line, column } = at(index);
    return [issue(3, code, message, line, column)];
  };
  let depth = 0;
  let roots = 0;
  let elements = 0;
  let attributes = 0;
  let last = 0;
  for (let tag = nextTag(masked, 0); tag; tag = nextTag(masked, tag.end)) {
    if (depth === 0) {
      const between = masked.slice(last, tag.index);
      const stray = between.search(/\S/);
      if (stray !== -1) {
        return fatal(roots ? CODE.documentEnd : CODE.documentEmpty, roots ? 'Extra content at the end of the document' : "Start tag expected, '<' not found", last + stray);
      }
    }
    if (tag.end === -1) return fatal(CODE.gtRequired, tag.closing ? `expected '>' after '</${tag.name}'` : `Couldn't find end of Start Tag ${tag.name}`, tag.index);
    if (tag.closing) depth--;
    else {
      if (++elements > MAX_XML_ELEMENTS) throw new XmlTooComplexError('elements', lang);
      if ((attributes += tag.attributes) > MAX_XML_ATTRIBUTES) throw new XmlTooComplexError('attributes', lang);
      if (depth === 0 && ++roots > 1) return fatal(CODE.documentEnd, 'Extra content at the end of the document', tag.index);
      if (!tag.selfClosing) depth++;
      if (depth > MAX_XML_DEPTH) return fatal(CODE.internal, `Excessive depth in document: ${MAX_XML_DEPTH} use XML_PARSE_HUGE option`, tag.index);
    }
    last = tag.end;
  }
  const tail = masked.slice(last).search(/\S/);
  if (roots && tail !== -1) return fatal(CODE.documentEnd, 'Extra content at the end of the document', last + tail);
  const entRe = /&([^;\s<&]*)(;?)/g;
  for (let m = entRe.exec(masked); m; m = entRe.exec(masked)) {
    const [, name, semi] = m;
    if (semi && /^(amp|lt|gt|quot|apos)$/.test(name!)) continue;
    const num = semi && /^#([0-9]+)$|^#x([0-9a-fA-F]+)$/.exec(name!);
    if (num) {
      const cp = num[1] !== undefined ? Number(num[1]) : parseInt(num[2]!, 16);
      const ok = cp === 0x9 || cp === 0xa || cp === 0xd || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || (cp >= 0x10000 && cp <= 0x10ffff);
      if (ok) continue;
      return fatal(CODE.invalidChar, `xmlParseCharRef: invalid xmlChar value ${cp}`, m.index);
    }
    return !name || !semi ? fatal(CODE.entityRefNoName, 'xmlParseEntityRef: no name', m.index) : fatal(CODE.undeclaredEntity, `Entity '${name}' not defined`, m.index);
  }
  return [];
}

function validatorIssue(content: string): XmlIssue | null {
  const res = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (res === true) return null;
  const { code, msg, line, col } = res.err;
  const n =
    code === 'InvalidTag' ? (/closing tag|Unclosed/i.test(msg) ? CODE.tagNameMismatch : CODE.gtRequired)
      : code === 'InvalidAttr' ? (/repeated/i.test(msg) ? CODE.attributeRedefined : CODE.attributeWithoutValue)
        : code === 'InvalidChar' ? CODE.invalidChar
          : code === 'InvalidXml' ? CODE.documentEmpty
            : CODE.internal;
  return issue(3, n, msg, line ?? 1, col ?? 1);
}

function structureIssues(content: string, roots: XNode[]): XmlIssue[] {
  const issues: XmlIssue[] = [];
  const at = positions(content);
  const add = (node: XNode, code: number, message: string) => {
    if (issues.length >= MAX_ERRORS) return;
    const { line, column } = at(node.index);
    issues.push(issue(2, code, message, line, column));
  };
  const root = roots[0];
  if (!root) return [issue(3, CODE.documentEmpty, 'Document is empty', 1, 1)];
  if (root.name !== ROOT_ELEMENT) {
    add(root, CODE.schemaRoot, `Element '${root.name}': No matching global declaration available for the validation root.`);
    return issues;
  }
  const walk = (node: XNode) => {
    const rule = RULES[node.name]!;
    const attrs = rule.attrs ?? {};
    for (const [name, value] of Object.entries(node.attrs)) {
      if (name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xsi:')) continue;
      if (!(name in attrs)) {
        add(node, CODE.schemaAttrNotAllowed, `Element '${node.name}', attribute '${name}': The attribute '${name}' is not allowed.`);
        continue;
      }
      const allowed = attrs[name];
      if (allowed && !allowed.includes(value)) {
        add(
          node,
          CODE.schemaEnum,
          `Element '${node.name}', attribute '${name}': [facet 'enumeration'] The value '${value}' is not an element of the set {${allowed.map((a) => `'${a}'`).join(', ')}}.`,
        );
      }
    }
    for (const name of rule.required ?? []) {
      if (!(name in node.attrs)) add(node, CODE.schemaAttrMissing, `Element '${node.name}': The attribute '${name}' is required but missing.`);
    }
    if (!rule.text && node.text.trim() !== '') {
      add(node, CODE.schemaTextNotAllowed, `Element '${node.name}': Character content other than whitespace is not allowed because the content type is 'element-only'.`);
    }
    for (const child of node.children) {
      if (!rule.children?.includes(child.name) || !RULES[child.name]) {
        const expected = rule.children?.length ? ` Expected is one of ( ${rule.children.join(', ')} ).` : ' No child element is expected at this point.';
        add(child, CODE.schemaElementNotExpected, `Element '${child.name}': This element is not expected.${expected}`);
        continue;
      }
      walk(child);
    }
  };
  walk(root);
  return issues;
}

function parseTree(content: string, lang: Lang): { issues: XmlIssue[]; roots: XNode[] } {
  const lexical = lexicalIssues(content, lang);
  if (lexical.length) return { issues: lexical, roots: [] };
  const invalid = validatorIssue(content);
  if (invalid) return { issues: [invalid], roots: [] };
  let roots: XNode[];
  try {
    roots = toTree(parser.parse(content) as RawNode[]);
  } catch (err) {
    return { issues: [issue(3, CODE.internal, `The XML could not be parsed: ${(err as Error).message}`, 1, 1)], roots: [] };
  }
  return { issues: structureIssues(content, roots), roots };
}

/**
 * POST custom-xml-config/validate: `[]` when the content is a valid configuration (or has no
 * word characters at all, like the reference), else the list of problems. Throws 422 past
 * MAX_XML_ELEMENTS or MAX_XML_ATTRIBUTES.
 */
export function validateCustomXml(content: string, lang: Lang = 'en'): XmlIssue[] {
  if (!/\w/.test(content)) return [];
  return parseTree(content, lang).issues;
}

// ---------------------------------------------------------------------------------------
// The configuration's effect

export interface TranslatableItem {
  name: string;
  translate: number;
  displayAsTranslated: boolean;
  automatic: boolean;
}

export interface FieldRule {
  key: string;
  action: 'translate' | 'copy' | 'copy-once' | 'ignore';
  style: string | null;
  label: string | null;
  encoding: string | null;
}

export interface AppliedConfig {
  customTypes: TranslatableItem[];
  taxonomies: TranslatableItem[];
  customFields: FieldRule[];
  customTermFields: FieldRule[];
  /** Paths of keys inside serialized field values whose texts are labelled. */
  customFieldsTexts: string[][];
  /** Option paths made translatable: ['blogname'], ['my_option', 'title'], '*' wildcards. */
  adminTexts: string[][];
  shortcodes: { tag: string; type: string | null; attributes: { name: string; type: string | null; label: string | null }[] }[];
  gutenbergBlocks: { type: string; translate: boolean; xpaths: string[]; keys: string[] }[];
  widgets: { builder: string; name: string; fields: { field: string; type: string | null; editorType: string | null }[] }[];
  builtWithPageBuilder: string | null;
  /** Strings of the registry this configuration registered (admin texts). */
  registeredStrings: number[];
}

export const EMPTY_CONFIG: AppliedConfig = {
  customTypes: [],
  taxonomies: [],
  customFields: [],
  customTermFields: [],
  customFieldsTexts: [],
  adminTexts: [],
  shortcodes: [],
  gutenbergBlocks: [],
  widgets: [],
  builtWithPageBuilder: null,
  registeredStrings: [],
};

function keyPaths(nodes: XNode[], prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const k of nodes.filter((n) => n.name === 'key')) {
    const path = [...prefix, k.attrs.name ?? ''];
    const nested = k.children.filter((c) => c.name === 'key');
    if (nested.length) out.push(...keyPaths(nested, path));
    else out.push(path);
  }
  return out;
}

function extractConfig(root: XNode): AppliedConfig {
  const cfg: AppliedConfig = structuredClone(EMPTY_CONFIG);
  const section = (name: string) => root.children.filter((c) => c.name === name).flatMap((c) => c.children);
  const item = (n: XNode): TranslatableItem => ({
    name: n.text.trim(),
    translate: Number(n.attrs.translate ?? '1'),
    displayAsTranslated: n.attrs['display-as-translated'] === '1' || n.attrs.translate === '2',
    automatic: n.attrs.automatic !== '0',
  });
  const field = (n: XNode): FieldRule => ({
    key: n.text.trim(),
    action: (n.attrs.action ?? 'ignore') as FieldRule['action'],
    style: n.attrs.style ?? null,
    label: n.attrs.label ?? null,
    encoding: n.attrs.encoding ?? null,
  });
  cfg.customTypes = section('custom-types').map(item).filter((i) => i.name);
  cfg.taxonomies = section('taxonomies').map(item).filter((i) => i.name);
  cfg.customFields = section('custom-fields').map(field).filter((f) => f.key);
  cfg.customTermFields = section('custom-term-fields').map(field).filter((f) => f.key);
  cfg.customFieldsTexts = keyPaths(section('custom-fields-texts'));
  cfg.adminTexts = keyPaths(section('admin-texts')).filter((p) => p.every((k) => k !== ''));
  cfg.shortcodes = section('shortcodes').map((sc) => {
    const tag = sc.children.find((c) => c.name === 'tag');
    return {
      tag: tag?.text.trim() ?? '',
      type: tag?.attrs.type ?? null,
      attributes: sc.children
        .filter((c) => c.name === 'attributes')
        .flatMap((a) => a.children)
        .map((a) => ({ name: a.text.trim(), type: a.attrs.type ?? null, label: a.attrs.label ?? null })),
    };
  }).filter((s) => s.tag);
  cfg.gutenbergBlocks = section('gutenberg-blocks').map((b) => ({
    type: b.attrs.type ?? '',
    translate: b.attrs.translate !== '0',
    xpaths: b.children.filter((c) => c.name === 'xpath').map((c) => c.text.trim()),
    keys: keyPaths(b.children).map((p) => p.join('>')),
  }));
  for (const builder of WIDGET_SECTIONS) {
    for (const w of section(builder)) {
      const fields = w.children
        .filter((c) => c.name === 'fields' || c.name === 'fields-in-item')
        .flatMap((c) => c.children)
        .map((f) => ({ field: f.text.trim(), type: f.attrs.type ?? null, editorType: f.attrs.editor_type ?? null }));
      cfg.widgets.push({ builder: builder.replace(/-widgets$/, ''), name: w.attrs.name ?? '', fields });
    }
  }
  const pb = root.children.find((c) => c.name === 'built-with-page-builder');
  cfg.builtWithPageBuilder = pb ? pb.text.trim() : null;
  return cfg;
}

/** Registry coordinates of an admin text: domain `admin_texts_<option>`, name `[option][…]key`. */
export function adminTextKey(path: string[]): { domain: string; name: string } {
  const option = path[0]!;
  if (path.length === 1) return { domain: `admin_texts_${option}`, name: option };
  return { domain: `admin_texts_${option}`, name: `[${path.slice(0, -1).join('][')}]${path[path.length - 1]}` };
}

/** Expands `*` in option sub-keys against the stored value; yields [path, text] pairs. */
function resolveAdminTexts(app: Pick<AppServices, 'options'>, paths: string[][]): [string[], string][] {
  const out: [string[], string][] = [];
  const visit = (value: unknown, path: string[], rest: string[]) => {
    if (!rest.length) {
      if (typeof value === 'string' && value !== '') out.push([path, value]);
      else if (typeof value === 'number') out.push([path, String(value)]);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const [head, ...tail] = rest;
    const obj = value as Record<string, unknown>;
    const keys = head!.includes('*') ? Object.keys(obj).filter((k) => wildcard(head!).test(k)) : head! in obj ? [head!] : [];
    for (const k of keys) visit(obj[k], [...path, k], tail);
  };
  for (const p of paths) {
    if (p[0]!.includes('*')) continue; // option names are not enumerable here
    visit(app.options.get(p[0]!), [p[0]!], p.slice(1));
  }
  return out;
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

const KEY_TEXT = 'custom_xml_config';
const KEY_APPLIED = 'custom_xml_applied';

/** GET custom-xml-config: the stored text ('' when none). */
export async function getCustomXml(app: Pick<AppServices, 'db'>): Promise<string> {
  return (await kvGet(app, KEY_TEXT)) ?? '';
}

/** The configuration currently in effect. */
export async function getAppliedConfig(app: Pick<AppServices, 'db'>): Promise<AppliedConfig> {
  return { ...EMPTY_CONFIG, ...(await kvGetJson<Partial<AppliedConfig>>(app, KEY_APPLIED, {})) };
}

export interface SaveResult {
  content: string;
  config: AppliedConfig;
}

/**
 * POST custom-xml-config: stores the text and applies it. Refuses (400) content that does not
 * validate; empty content (no word characters) clears the configuration.
 */
export async function saveCustomXml(app: Pick<AppServices, 'db' | 'options'>, content: string, lang: Lang = 'en'): Promise<SaveResult> {
  checkContentParam(content, lang);
  let config: AppliedConfig = structuredClone(EMPTY_CONFIG);
  if (/\w/.test(content)) {
    const { issues, roots } = parseTree(content, lang);
    if (issues.length) {
      const first = issues[0]!;
      const doctype = first.code === CODE.doctypeRefused;
      throw new RestError(
        doctype ? 'i18n_xml_doctype_forbidden' : 'i18n_xml_invalid',
        doctype
          ? lang === 'de'
            ? 'Die XML-Konfiguration darf keine DOCTYPE- oder ENTITY-Deklarationen enthalten.'
            : 'The XML configuration may not contain a DOCTYPE or entity declarations.'
          : lang === 'de'
            ? `Die XML-Konfiguration ist ungültig: ${first.message.trim()} (Zeile ${first.line}, Spalte ${first.column}).`
            : `The XML configuration is not valid: ${first.message.trim()} (line ${first.line}, column ${first.column}).`,
        400,
        { errors: issues },
      );
    }
    config = extractConfig(roots[0]!);
  }
  const ids: number[] = [];
  for (const [path, text] of resolveAdminTexts(app, config.adminTexts)) {
    const key = adminTextKey(path);
    const res = await registerString(app, { ...key, value: text, source: 1, type: 0, kind: 0 });
    ids.push(res.id);
  }
  config.registeredStrings = ids;
  await app.db.transaction().execute(async (tx) => {
    await kvSet(app, KEY_TEXT, content, tx);
    await kvSet(app, KEY_APPLIED, JSON.stringify(config), tx);
  });
  return { content, config };
}

/**
 * Registers (or updates) the admin texts of the configuration in effect from the current
 * option values: call after site options change, so the registry shows the new source texts
 * (complete translations of a changed text are marked "needs update").
 */
export async function syncAdminTexts(app: Pick<AppServices, 'db' | 'options'>): Promise<number> {
  const config = await getAppliedConfig(app);
  let n = 0;
  for (const [path, text] of resolveAdminTexts(app, config.adminTexts)) {
    await registerString(app, { ...adminTextKey(path), value: text, source: 1, type: 0, kind: 0 });
    n++;
  }
  return n;
}

function matches(pattern: string, name: string): boolean {
  return pattern.includes('*') ? wildcard(pattern).test(name) : pattern === name;
}

/** Translation mode of a post type per the configuration (0 no, 1 yes, 2 yes with fallback); null when not configured. */
export function postTypeMode(config: AppliedConfig, slug: string): number | null {
  return config.customTypes.find((t) => t.name === slug)?.translate ?? null;
}

export function taxonomyMode(config: AppliedConfig, slug: string): number | null {
  return config.taxonomies.find((t) => t.name === slug)?.translate ?? null;
}

/** What happens to a custom field on translation; null when not configured. */
export function customFieldAction(config: AppliedConfig, key: string): FieldRule['action'] | null {
  return config.customFields.find((f) => matches(f.key, key))?.action ?? null;
}

/** Whether an option (or a sub-key of it) is a translatable admin text. */
export function isAdminText(config: AppliedConfig, path: string[]): boolean {
  return config.adminTexts.some((p) => p.length === path.length && p.every((k, i) => matches(k, path[i]!)));
}

/** The value of a site option in `lang`, translated when it is a registered admin text. */
export async function translateOption(app: Pick<AppServices, 'db' | 'options'>, option: string, lang: string): Promise<unknown> {
  const value = app.options.get(option);
  if (typeof value !== 'string') return value;
  const translated = await translateString(app, adminTextKey([option]), lang);
  return translated ?? value;
}
