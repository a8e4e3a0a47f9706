// Checking the custom XML configuration of i18n/v1 (the reference's wpml-config.xml):
// well-formedness with a real XML parser, then the structure rules of reference plugins §3
// (xml-rules.ts); the parsed tree for xml-config.ts to apply.
//
// Safety: no DTDs at all (DOCTYPE and ENTITY declarations are refused before parsing, so
// there is no external entity and no entity expansion), a 1 MiB size limit, and nesting,
// element and attribute limits checked before the tree is built. Every check before the parser is one
// linear pass (no backtracking scan), so a check costs time in proportion to the content.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { RestError, type Lang } from '../../rest/types.ts';
import { MSG as REST_MSG, fill } from '../../rest/messages.ts';
import { MSG } from './messages.ts';
import { ROOT_ELEMENT, RULES } from './xml-rules.ts';
import { maskNonMarkup, nextTag, positions } from './xml-scan.ts';

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
export const CODE = {
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

export function issue(level: 1 | 2 | 3, code: number, message: string, line: number, column: number): XmlIssue {
  return { level, code, column, message: message.endsWith('\n') ? message : `${message}\n`, file: '', line };
}

export class XmlTooLargeError extends RestError {
  constructor(bytes: number, lang: Lang = 'en') {
    super('i18n_xml_too_large', MSG.xmlTooLarge(bytes, MAX_XML_BYTES)[lang], 413, { max_bytes: MAX_XML_BYTES });
  }
}

/** 422 for a configuration past MAX_XML_ELEMENTS or MAX_XML_ATTRIBUTES. */
export class XmlTooComplexError extends RestError {
  constructor(limit: 'elements' | 'attributes', lang: Lang = 'en') {
    const max = limit === 'elements' ? MAX_XML_ELEMENTS : MAX_XML_ATTRIBUTES;
    super(
      'i18n_xml_too_complex',
      MSG.xmlTooComplex(max, limit === 'elements' ? MSG.xmlElements : MSG.xmlAttributes)[lang],
      422,
      { limit, max },
    );
  }
}

/** Throws 400/413 for content that is not a string or is too large. */
export function checkContentParam(content: unknown, lang: Lang = 'en'): string {
  if (content === undefined || content === null) return '';
  if (typeof content !== 'string') {
    throw new RestError('rest_invalid_param', fill(REST_MSG.invalidParams[lang], 'content'), 400, {
      params: { content: MSG.contentNotString[lang] },
    });
  }
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes > MAX_XML_BYTES) throw new XmlTooLargeError(bytes, lang);
  return content;
}

// ---------------------------------------------------------------------------------------
// Parsed tree

export interface XNode {
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
      text: kids
        .filter((k) => '#text' in k)
        .map((k) => String(k['#text']))
        .join(''),
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
    return [
      issue(
        3,
        CODE.doctypeRefused,
        `${dtd[1]!.toUpperCase()} declarations are not allowed: the configuration may not contain a DTD or entity declarations`,
        line,
        column,
      ),
    ];
  }
  const badChar =
    /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.exec(
      content,
    );
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
        return fatal(
          roots ? CODE.documentEnd : CODE.documentEmpty,
          roots ? 'Extra content at the end of the document' : "Start tag expected, '<' not found",
          last + stray,
        );
      }
    }
    if (tag.end === -1)
      return fatal(
        CODE.gtRequired,
        tag.closing ? `expected '>' after '</${tag.name}'` : `Couldn't find end of Start Tag ${tag.name}`,
        tag.index,
      );
    if (tag.closing) depth--;
    else {
      if (++elements > MAX_XML_ELEMENTS) throw new XmlTooComplexError('elements', lang);
      if ((attributes += tag.attributes) > MAX_XML_ATTRIBUTES) throw new XmlTooComplexError('attributes', lang);
      if (depth === 0 && ++roots > 1)
        return fatal(CODE.documentEnd, 'Extra content at the end of the document', tag.index);
      if (!tag.selfClosing) depth++;
      if (depth > MAX_XML_DEPTH)
        return fatal(
          CODE.internal,
          `Excessive depth in document: ${MAX_XML_DEPTH} use XML_PARSE_HUGE option`,
          tag.index,
        );
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
      const ok =
        cp === 0x9 ||
        cp === 0xa ||
        cp === 0xd ||
        (cp >= 0x20 && cp <= 0xd7ff) ||
        (cp >= 0xe000 && cp <= 0xfffd) ||
        (cp >= 0x10000 && cp <= 0x10ffff);
      if (ok) continue;
      return fatal(CODE.invalidChar, `xmlParseCharRef: invalid xmlChar value ${cp}`, m.index);
    }
    return !name || !semi
      ? fatal(CODE.entityRefNoName, 'xmlParseEntityRef: no name', m.index)
      : fatal(CODE.undeclaredEntity, `Entity '${name}' not defined`, m.index);
  }
  return [];
}

function validatorIssue(content: string): XmlIssue | null {
  const res = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (res === true) return null;
  const { code, msg, line, col } = res.err;
  const n =
    code === 'InvalidTag'
      ? /closing tag|Unclosed/i.test(msg)
        ? CODE.tagNameMismatch
        : CODE.gtRequired
      : code === 'InvalidAttr'
        ? /repeated/i.test(msg)
          ? CODE.attributeRedefined
          : CODE.attributeWithoutValue
        : code === 'InvalidChar'
          ? CODE.invalidChar
          : code === 'InvalidXml'
            ? CODE.documentEmpty
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
    add(
      root,
      CODE.schemaRoot,
      `Element '${root.name}': No matching global declaration available for the validation root.`,
    );
    return issues;
  }
  const walk = (node: XNode) => {
    const rule = RULES[node.name]!;
    const attrs = rule.attrs ?? {};
    for (const [name, value] of Object.entries(node.attrs)) {
      if (name === 'xmlns' || name.startsWith('xmlns:') || name.startsWith('xsi:')) continue;
      if (!(name in attrs)) {
        add(
          node,
          CODE.schemaAttrNotAllowed,
          `Element '${node.name}', attribute '${name}': The attribute '${name}' is not allowed.`,
        );
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
      if (!(name in node.attrs))
        add(node, CODE.schemaAttrMissing, `Element '${node.name}': The attribute '${name}' is required but missing.`);
    }
    if (!rule.text && node.text.trim() !== '') {
      add(
        node,
        CODE.schemaTextNotAllowed,
        `Element '${node.name}': Character content other than whitespace is not allowed because the content type is 'element-only'.`,
      );
    }
    for (const child of node.children) {
      if (!rule.children?.includes(child.name) || !RULES[child.name]) {
        const expected = rule.children?.length
          ? ` Expected is one of ( ${rule.children.join(', ')} ).`
          : ' No child element is expected at this point.';
        add(child, CODE.schemaElementNotExpected, `Element '${child.name}': This element is not expected.${expected}`);
        continue;
      }
      walk(child);
    }
  };
  walk(root);
  return issues;
}

export function parseTree(content: string, lang: Lang): { issues: XmlIssue[]; roots: XNode[] } {
  const lexical = lexicalIssues(content, lang);
  if (lexical.length) return { issues: lexical, roots: [] };
  const invalid = validatorIssue(content);
  if (invalid) return { issues: [invalid], roots: [] };
  let roots: XNode[];
  try {
    roots = toTree(parser.parse(content) as RawNode[]);
  } catch (err) {
    return {
      issues: [issue(3, CODE.internal, `The XML could not be parsed: ${(err as Error).message}`, 1, 1)],
      roots: [],
    };
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
