// Reading a translated XLIFF 1.2 file back (the upload of POST jobs/<id>/xliff): checked before
// anything is stored — size, no DTD or entity declarations and no entity references beyond
// XML's five (so nothing expands or loads), well-formed, one <file> whose `original`, source
// and target languages are the job's, units named by the job's field ids, each once, each
// with a text <target>. Every refusal is a 400 naming the line where the problem is.
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import type { Lang } from '../../rest/types.ts';
import { restError } from '../../rest/define.ts';
import { MSG } from './messages.ts';
import type { JobRow } from './jobs.ts';
import { xliffOriginal } from './xliff.ts';

/** As large as a request body may be (src/server/http.ts BODY_LIMIT). */
export const MAX_XLIFF_BYTES = 1024 * 1024;
const MAX_DEPTH = 64;

type Node = Record<string, unknown>;

function lineColAt(text: string, index: number): { line: number; column: number } {
  let line = 1;
  let last = -1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    line++;
    last = i;
  }
  return { line, column: index - last };
}

const LITERALS = [
  ['<![CDATA[', ']]>'],
  ['<!--', '-->'],
] as const;

/**
 * The text with CDATA sections and comments blanked (same length), for scanning markup only.
 * Linear: each kind's next opening is searched again only once passed, and an unclosed
 * section blanks the rest (a lazy regex would rescan the text from every opening).
 */
function maskLiterals(text: string): string {
  const next = LITERALS.map(([open]) => text.indexOf(open));
  let out = '';
  let at = 0;
  for (;;) {
    let k = -1;
    for (let i = 0; i < LITERALS.length; i++) if (next[i]! >= 0 && (k < 0 || next[i]! < next[k]!)) k = i;
    if (k < 0) return out + text.slice(at);
    const [open, close] = LITERALS[k]!;
    const start = next[k]!;
    const closing = text.indexOf(close, start + open.length);
    const end = closing < 0 ? text.length : closing + close.length;
    out += text.slice(at, start) + text.slice(start, end).replace(/[^\n]/g, ' ');
    at = end;
    for (let i = 0; i < LITERALS.length; i++)
      if (next[i]! >= 0 && next[i]! < at) next[i] = text.indexOf(LITERALS[i]![0], at);
  }
}

const PREDEFINED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const ENTITY_REF = /&(#x[0-9a-fA-F]+|#[0-9]+|[A-Za-z_][\w.-]*);/g;

function decodeEntities(text: string): string {
  return text.replace(ENTITY_REF, (m, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
      return code <= 0x10ffff ? String.fromCodePoint(code) : m;
    }
    return PREDEFINED[name] ?? m;
  });
}

const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: '',
  trimValues: false,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: false,
  cdataPropName: '#cdata',
  commentPropName: '#comment',
});

const tagOf = (node: Node): string | null => Object.keys(node).find((k) => k !== ':@') ?? null;
const childrenOf = (node: Node): Node[] => (node[tagOf(node) ?? ''] as Node[] | undefined) ?? [];
const attr = (node: Node, name: string): string | null => {
  const v = (node[':@'] as Record<string, unknown> | undefined)?.[name];
  return typeof v === 'string' ? decodeEntities(v) : null;
};
const elements = (nodes: Node[], tag: string): Node[] => nodes.filter((n) => tagOf(n) === tag);

/** Text content of an element made of text and CDATA only; null when it holds elements. */
function textOf(node: Node): string | null {
  let out = '';
  for (const child of childrenOf(node)) {
    const tag = tagOf(child);
    if (tag === '#text') out += decodeEntities(String(child['#text']));
    else if (tag === '#cdata') out += (child['#cdata'] as Node[]).map((c) => String(c['#text'] ?? '')).join('');
    else if (tag !== '#comment') return null;
  }
  return out;
}

/** The trans-units of a body, also inside <group> elements. */
function unitsOf(nodes: Node[], out: Node[] = []): Node[] {
  for (const n of nodes) {
    const tag = tagOf(n);
    if (tag === 'trans-unit') out.push(n);
    else if (tag === 'group') unitsOf(childrenOf(n), out);
  }
  return out;
}

/**
 * The translations an uploaded XLIFF carries for `job`: field id → target text, for the
 * units it holds (a file may carry some of the job's units). Throws a 400 RestError otherwise.
 */
export function readXliffTargets(
  content: string,
  job: JobRow,
  fieldIds: readonly string[],
  lang: Lang,
): Map<string, string> {
  if (Buffer.byteLength(content, 'utf8') > MAX_XLIFF_BYTES) {
    throw restError({ lang }, 'i18n_xliff_too_large', MSG.xliffTooLarge(MAX_XLIFF_BYTES / 1024 / 1024), 400);
  }
  if (content.trim() === '')
    throw restError({ lang }, 'i18n_xliff_malformed', MSG.xliffEmpty, 400, { line: 1, column: 1 });
  const masked = maskLiterals(content);
  const dtd = /<!(DOCTYPE|ENTITY|ELEMENT|ATTLIST|NOTATION)\b/i.exec(masked);
  if (dtd) {
    const at = lineColAt(content, dtd.index);
    throw restError({ lang }, 'i18n_xliff_dtd_refused', MSG.xliffDtd(at.line, at.column), 400, at);
  }
  for (const m of masked.matchAll(ENTITY_REF)) {
    const name = m[1]!;
    if (name.startsWith('#') || PREDEFINED[name] !== undefined) continue;
    const at = lineColAt(content, m.index);
    throw restError({ lang }, 'i18n_xliff_entity_refused', MSG.xliffEntity(name, at.line, at.column), 400, at);
  }
  // Nesting is bounded before a tree is built (one pass: each tag is skipped to its end).
  let depth = 0;
  for (let i = masked.indexOf('<'); i >= 0; i = masked.indexOf('<', i)) {
    const end = masked.indexOf('>', i);
    if (end < 0) break;
    const kind = masked[i + 1] ?? '';
    if (kind === '/') depth--;
    else if (/[A-Za-z_]/.test(kind) && masked[end - 1] !== '/') depth++;
    if (depth > MAX_DEPTH) {
      const at = lineColAt(content, i);
      throw restError({ lang }, 'i18n_xliff_malformed', MSG.xliffTooDeep(MAX_DEPTH, at.line), 400, at);
    }
    i = end + 1;
  }
  const verdict = XMLValidator.validate(content, { allowBooleanAttributes: false });
  if (verdict !== true) {
    const { msg, line, col } = verdict.err;
    throw restError({ lang }, 'i18n_xliff_malformed', MSG.xliffNotWellFormed(msg, line, col), 400, {
      line,
      column: col,
    });
  }
  const doc = parser.parse(content) as Node[];
  const root = doc.find((n) => {
    const tag = tagOf(n);
    return tag !== null && !tag.startsWith('?') && !tag.startsWith('#');
  });
  if (!root || tagOf(root) !== 'xliff' || attr(root, 'version') !== '1.2') {
    throw restError({ lang }, 'i18n_xliff_not_xliff', MSG.xliffNotXliff, 400);
  }
  const files = elements(childrenOf(root), 'file');
  if (files.length !== 1) {
    throw restError({ lang }, 'i18n_xliff_not_xliff', MSG.xliffFileCount(files.length), 400);
  }
  const file = files[0]!;
  const original = attr(file, 'original');
  if (original !== xliffOriginal(job)) {
    throw restError({ lang }, 'i18n_xliff_wrong_job', MSG.xliffOtherJob(original ?? '', job.id), 400, {
      expected: xliffOriginal(job),
      found: original,
    });
  }
  const source = attr(file, 'source-language');
  const target = attr(file, 'target-language');
  if (source !== job.source_language || target !== job.target_language) {
    throw restError(
      { lang },
      'i18n_xliff_wrong_language',
      MSG.xliffOtherLanguages(source ?? '?', target ?? '?', job.id, job.source_language, job.target_language),
      400,
      { source_language: source, target_language: target },
    );
  }
  const body = elements(childrenOf(file), 'body')[0];
  const units = body ? unitsOf(childrenOf(body)) : [];
  if (!units.length) {
    throw restError({ lang }, 'i18n_xliff_no_translation_units', MSG.xliffWithoutUnits, 400);
  }
  const known = new Set(fieldIds);
  const out = new Map<string, string>();
  for (const unit of units) {
    const id = attr(unit, 'id') ?? '';
    if (!known.has(id)) {
      throw restError({ lang }, 'i18n_xliff_unknown_unit', MSG.xliffUnknownUnit(id, job.id), 400, { unit: id });
    }
    if (out.has(id)) {
      throw restError({ lang }, 'i18n_xliff_duplicate_unit', MSG.xliffDuplicateUnit(id), 400, { unit: id });
    }
    const targetEl = elements(childrenOf(unit), 'target')[0];
    const text = targetEl ? textOf(targetEl) : null;
    if (text === null) {
      throw restError({ lang }, 'i18n_xliff_bad_unit', MSG.xliffUnitWithoutTarget(id), 400, { unit: id });
    }
    out.set(id, text);
  }
  return out;
}
