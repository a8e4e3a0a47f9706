// XLIFF 1.2 export of a job (reference plugins §5.3) and GET /xliff/fetch/<job_id>.
import crypto from 'node:crypto';
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { restError } from '../../rest/define.ts';
import { MSG } from './messages.ts';
import { findJob, isManager, jobNotFound, type JobRow, type Viewer } from './jobs.ts';

export interface XliffField {
  field_id: string;
  label: string | null;
  source: string;
  target: string | null;
  tm_suggestion: number;
  wrap_tag: string | null;
}

// XML 1.0 allows only these characters, even inside CDATA.
// eslint-disable-next-line no-control-regex
const INVALID_XML_CHARS = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function xmlText(text: string): string {
  return text.replace(INVALID_XML_CHARS, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text)
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;')
    .replace(/\t/g, '&#9;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;');
}

/** Text as CDATA; a `]]>` inside is split over two sections. */
export function cdata(text: string): string {
  return `<![CDATA[${text.replace(INVALID_XML_CHARS, '').split(']]>').join(']]]]><![CDATA[>')}]]>`;
}

const SHORTCODE = /\[\/?([A-Za-z_][\w-]*)[^\]]*\]/g;

function shortcodesOf(fields: XliffField[]): string[] {
  const found = new Set<string>();
  for (const f of fields) for (const m of f.source.matchAll(SHORTCODE)) found.add(m[1]!);
  return [...found].sort();
}

/** The `original` attribute of the file: `<job id>-<md5>` as the reference writes it. */
export function xliffOriginal(job: Pick<JobRow, 'id' | 'element_id'>): string {
  return `${job.id}-${crypto.createHash('md5').update(`${job.id}${job.element_id}`).digest('hex')}`;
}

export function buildXliff(job: JobRow, fields: XliffField[]): string {
  const phases: string[] = [];
  const shortcodes = shortcodesOf(fields);
  if (shortcodes.length) {
    phases.push(
      `<phase phase-name="shortcodes" process-name="Shortcodes identification"><note>${xmlText(shortcodes.join(','))}</note></phase>`,
    );
  }
  if (job.note) phases.push(`<phase phase-name="notes" process-name="Notes"><note>${xmlText(job.note)}</note></phase>`);
  if (job.type === 'post') {
    const postType = job.element_type.startsWith('post_') ? job.element_type.slice(5) : job.element_type;
    phases.push(`<phase phase-name="post_type" process-name="Post type"><note>${xmlText(postType)}</note></phase>`);
  }
  const header: string[] = [];
  if (phases.length) header.push(`      <phase-group>\n        ${phases.join('\n        ')}\n      </phase-group>`);
  if (job.element_url) header.push(`      <reference><external-file href="${xmlAttr(job.element_url)}"/></reference>`);

  const units = fields.map((f) => {
    const attrs = [
      `id="${xmlAttr(f.field_id)}"`,
      `resname="${xmlAttr(f.field_id)}"`,
      'restype="string"',
      'datatype="html"',
      ...(f.label ? [`extradata="${xmlAttr(f.label)}"`] : []),
    ].join(' ');
    const targetText = f.target ?? f.source;
    const targetAttrs =
      f.tm_suggestion && f.target !== null ? ' state="needs-review-translation" state-qualifier="tm-suggestion"' : '';
    const lines = [
      `      <trans-unit ${attrs}>`,
      `        <source>${cdata(f.source)}</source>`,
      `        <target${targetAttrs}>${cdata(targetText)}</target>`,
      ...(f.wrap_tag ? [`        <note>wrap_tag:${xmlText(f.wrap_tag)}</note>`] : []),
      '      </trans-unit>',
    ];
    return lines.join('\n');
  });

  return [
    '<?xml version="1.0" encoding="utf-8" standalone="no"?>',
    '<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">',
    `  <file original="${xmlAttr(xliffOriginal(job))}" source-language="${xmlAttr(job.source_language)}" target-language="${xmlAttr(job.target_language)}" datatype="plaintext">`,
    header.length ? `    <header>\n${header.join('\n')}\n    </header>` : '    <header/>',
    '    <body>',
    ...units,
    '    </body>',
    '  </file>',
    '</xliff>',
    '',
  ].join('\n');
}

export interface XliffExport {
  content: string;
  sourceLang: string;
  targetLang: string;
}

/** A job's XLIFF: 404 unknown job, 403 another translator's job, 422 no units. */
export async function jobXliff(
  app: AppServices,
  jobId: number,
  viewer: Viewer | null,
  lang: Lang = 'en',
): Promise<{ job: JobRow; xml: string }> {
  const job = await findJob(app, jobId);
  if (!job) throw jobNotFound(jobId, lang);
  if (!isManager(viewer) && job.translator_id !== viewer!.id) {
    throw restError({ lang }, 'i18n_tm_xliff_forbidden', MSG.xliffNotYours, 403);
  }
  const fields = await app.db
    .selectFrom('tm_job_fields')
    .select(['field_id', 'label', 'source', 'target', 'tm_suggestion', 'wrap_tag'])
    .where('job_id', '=', job.id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  if (!fields.length) {
    throw restError({ lang }, 'i18n_xliff_no_translation_units', MSG.jobWithoutUnits(job.id), 422);
  }
  return { job, xml: buildXliff(job, fields) };
}

/** GET /xliff/fetch/<job_id>: the contract's answer, the file base64-encoded in JSON. */
export async function fetchXliff(
  app: AppServices,
  jobId: number,
  viewer: Viewer | null,
  lang: Lang = 'en',
): Promise<XliffExport> {
  const { job, xml } = await jobXliff(app, jobId, viewer, lang);
  return {
    content: Buffer.from(xml, 'utf8').toString('base64'),
    sourceLang: job.source_language,
    targetLang: job.target_language,
  };
}
