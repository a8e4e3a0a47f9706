// Pages and posts (`<prefix>posts` of type page and post) into the site content: title,
// content, excerpt, slug, status, author, menu order, dates, language and translation group
// (WPML's icl_translations), featured image (with its file from --uploads).
//
// What our content model does not have is reported, not invented: the page tree (post_parent;
// our addresses are flat, so a slug used twice gets a suffix), categories and tags, comments,
// revisions, password protection. WordPress's HTML becomes our plain text: paragraphs and
// headings become paragraphs, links keep their address in brackets, and addresses of the old
// site are rewritten to ours. Statuses: future (scheduled) becomes draft; trash is skipped
// unless --include-trash (then the status it had before).
import fs from 'node:fs';
import path from 'node:path';
import { Parser } from 'htmlparser2';
import { RESERVED_SLUGS, siteUrl as ourSiteUrl } from '../../../pages/api.ts';
import { syncIdSequence, mysqlDate, type ImportContext, type ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { phpValue } from '../source/php.ts';
import { fingerprint } from '../state.ts';

const BATCH = 200;
const LANGS = new Set(['en', 'de']);
const BLOCK_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'blockquote',
  'div',
  'figure',
  'figcaption',
  'pre',
  'table',
  'tr',
  'ul',
  'ol',
  'hr',
  'section',
]);

interface WpPost {
  ID: number;
  post_type: string;
  post_status: string;
  post_name: string;
  post_title: string;
  post_content: string;
  post_excerpt: string;
  post_author: number;
  post_parent: number;
  menu_order: number;
  post_date_gmt: string;
  post_modified_gmt: string;
  post_date: string;
  post_password: string;
}

/** A slug of ours (lowercase letters, digits and single hyphens) from WordPress's (percent-encoded) one or a title. */
export function ourSlug(text: string): string {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: used as it is.
  }
  return decoded
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190)
    .replace(/-+$/, '');
}

/** WordPress's HTML as our plain text (paragraphs separated by blank lines), old-site addresses made ours. */
export function htmlToText(html: string, rewrite: (url: string) => string): string {
  const paragraphs: string[] = [];
  let current = '';
  const links: string[] = [];
  const flush = () => {
    const text = current.replace(/[ \t\r\n]+/g, ' ').trim();
    if (text) paragraphs.push(text);
    current = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (BLOCK_TAGS.has(name)) flush();
        else if (name === 'br') current += '\n';
        else if (name === 'a') links.push(attrs.href ? rewrite(attrs.href) : '');
        else if (name === 'img' && attrs.src) current += ` ${attrs.alt ? `${attrs.alt} ` : ''}(${rewrite(attrs.src)}) `;
      },
      ontext(text) {
        current += text;
      },
      onclosetag(name) {
        if (name === 'a') {
          const href = links.pop();
          if (href && !current.trimEnd().endsWith(href)) current += ` (${href})`;
        } else if (BLOCK_TAGS.has(name)) flush();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  // Shortcodes and bare addresses in the text are old-site addresses too.
  return paragraphs.map(rewrite).join('\n\n');
}

/** HTML entities in a title (contributors' titles are stored with `&amp;`) decoded. */
function plainTitle(title: string): string {
  return htmlToText(title, (u) => u).replace(/\n+/g, ' ');
}

export const contentKind: ImportKind = {
  name: 'content',
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    const posts = wp.table('posts');
    const types = `post_type IN ('page', 'post')`;
    report.available = await wp.count('posts', types);
    const stage = ctx.progress.stage('content', report.available);
    const oldBase = await wp.siteUrl();
    const newBase = ourSiteUrl(app);
    const rewrite = (text: string) =>
      oldBase
        ? text
            .split(`${oldBase}/wp-content/uploads/`)
            .join(`${newBase}/uploads/`)
            .split(oldBase)
            .join(`${newBase}/{lang}`)
        : text;
    const languages = await languagesOf(ctx);
    const userIds = await state.mappings('users');
    const known = await state.mappings('content');
    let done = 0;
    let parents = 0;
    for await (const batch of wp.batches<WpPost & Record<string, unknown>>(
      `SELECT ID, post_type, post_status, post_name, post_title, post_content, post_excerpt, post_author, post_parent, menu_order, post_date_gmt, post_modified_gmt, post_date, post_password FROM ${posts}`,
      'ID',
      0,
      BATCH,
      types,
    )) {
      const thumbnails = await thumbnailsOf(
        ctx,
        batch.map((p) => Number(p.ID)),
      );
      for (const p of batch) {
        stage.update(++done);
        const id = Number(p.ID);
        if (Number(p.post_parent) > 0) parents++;
        let status = String(p.post_status);
        if (status === 'trash') {
          if (!ctx.includeTrash) {
            report.skip('in the trash (--include-trash brings it over)');
            continue;
          }
          status = (await trashedStatus(ctx, id)) ?? 'draft';
        }
        if (status === 'future') {
          report.note('scheduled (future) items are imported as drafts: scheduling is not modelled here');
          status = 'draft';
        }
        if (!['publish', 'draft', 'pending', 'private'].includes(status)) {
          report.skip(`status "${status}"`);
          continue;
        }
        const lang = languages.get(id)?.lang ?? 'en';
        if (!LANGS.has(lang)) {
          report.skip(`language "${lang}" (this site serves en and de)`);
          continue;
        }
        if (p.post_password)
          report.note(
            'password-protected items are imported without their password (not modelled here): check them before publishing',
          );
        const localRewrite = (text: string) => rewrite(text).split(`${newBase}/{lang}`).join(`${newBase}/${lang}`);
        const author = userIds.get(String(p.post_author));
        const title = plainTitle(String(p.post_title)) || `(untitled ${p.post_type} ${id})`;
        const created = mysqlDate(p.post_date_gmt) ?? mysqlDate(p.post_date) ?? '1970-01-01 00:00:00';
        const fields = {
          type: String(p.post_type),
          lang,
          title,
          content: htmlToText(String(p.post_content ?? ''), localRewrite),
          excerpt: htmlToText(String(p.post_excerpt ?? ''), localRewrite),
          status,
          author_id: author ? Number(author.targetId) : null,
          menu_order: Number(p.menu_order) || 0,
          created_at: created,
          modified_at: mysqlDate(p.post_modified_gmt) ?? created,
          ...(await thumbnailFields(ctx, report, thumbnails.get(id), newBase)),
        };
        const slug = ourSlug(String(p.post_name)) || ourSlug(title) || `${p.post_type}-${id}`;
        await importItem(ctx, report, id, slug, fields, known);
      }
    }
    if (parents)
      report.note(
        `${parents} page(s) have a parent at the source: the page tree is not modelled here (addresses are flat)`,
      );
    if (!ctx.dryRun) {
      await syncIdSequence(app, 'posts');
      await linkTranslations(ctx, languages);
      await mapFrontPages(ctx, report);
    }
    const terms = wp.has('term_relationships') ? await wp.count('term_relationships') : 0;
    if (terms)
      report.note(`${terms} category and tag assignments stay behind: categories and tags are not modelled here`);
    stage.finish(
      `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedTotal} skipped`,
    );
  },
};

type ItemFields = {
  type: string;
  lang: string;
  title: string;
  content: string;
  excerpt: string;
  status: string;
  author_id: number | null;
  menu_order: number;
  created_at: string;
  modified_at: string;
  thumbnail_url: string | null;
  thumbnail_width: number | null;
  thumbnail_height: number | null;
};

async function importItem(
  ctx: ImportContext,
  report: KindReport,
  sourceId: number,
  wantedSlug: string,
  fields: ItemFields,
  known: Map<string, { targetId: string; checksum: string }>,
): Promise<void> {
  const { app, state } = ctx;
  const checksum = fingerprint({ ...fields, slug: wantedSlug });
  const previous = known.get(String(sourceId));
  if (previous) {
    const target = await app.db
      .selectFrom('posts')
      .select(['id'])
      .where('id', '=', Number(previous.targetId))
      .executeTakeFirst();
    if (!target) {
      report.skip('deleted on this site after an earlier import (not brought back)');
      return;
    }
    if (previous.checksum === checksum) {
      report.unchanged++;
      return;
    }
    report.updated++;
    if (ctx.dryRun) return;
    // The slug stays as first imported (links to it exist by now).
    await app.db.transaction().execute(async (tx) => {
      await tx.updateTable('posts').set(fields).where('id', '=', target.id).execute();
      await state.map(tx, 'content', sourceId, target.id, checksum);
    });
    return;
  }
  let slug = RESERVED_SLUGS.has(wantedSlug) ? `${wantedSlug}-${fields.type}` : wantedSlug;
  const holder = await app.db
    .selectFrom('posts')
    .select(['id'])
    .where('lang', '=', fields.lang)
    .where('slug', '=', slug)
    .executeTakeFirst();
  let overwrite: number | null = null;
  if (holder) {
    const importedHolder = await app.db
      .selectFrom('import_map')
      .select('source_id')
      .where('source', '=', state.source)
      .where('kind', '=', 'content')
      .where('target_id', '=', String(holder.id))
      .executeTakeFirst();
    if (importedHolder) {
      // Two items of the source share a slug (WordPress allows it under different parents): the later one gets a suffix.
      slug = await freeSlug(ctx, fields.lang, slug);
      report.note(
        `slug "${wantedSlug}" is used by more than one item of the source (the page tree is flat here): later ones get a suffix`,
      );
    } else if (ctx.onConflict === 'skip') {
      report.conflict(
        `${fields.type} ${sourceId} "${fields.title}": the slug "${slug}" (${fields.lang}) is taken here — skipped`,
      );
      report.skip('slug taken here (--on-conflict skip)');
      return;
    } else if (ctx.onConflict === 'rename') {
      const renamed = await freeSlug(ctx, fields.lang, slug);
      report.conflict(
        `${fields.type} ${sourceId} "${fields.title}": the slug "${slug}" (${fields.lang}) is taken here — imported as "${renamed}"`,
      );
      slug = renamed;
    } else {
      report.conflict(
        `${fields.type} ${sourceId} "${fields.title}": the slug "${slug}" (${fields.lang}) is taken here — item ${holder.id} overwritten`,
      );
      overwrite = holder.id;
    }
  }
  if (overwrite !== null) report.updated++;
  else report.imported++;
  if (ctx.dryRun) return;
  const id = overwrite;
  await app.db.transaction().execute(async (tx) => {
    let targetId: number;
    if (id !== null) {
      await tx
        .updateTable('posts')
        .set({ ...fields, slug })
        .where('id', '=', id)
        .execute();
      targetId = id;
    } else {
      const idFree = !(await tx.selectFrom('posts').select('id').where('id', '=', sourceId).executeTakeFirst());
      const row = await tx
        .insertInto('posts')
        .values({ ...(idFree ? { id: sourceId } : {}), ...fields, slug, trid: null })
        .returning('id')
        .executeTakeFirstOrThrow();
      targetId = row.id;
      await tx.updateTable('posts').set({ trid: targetId }).where('id', '=', targetId).execute();
    }
    await state.map(tx, 'content', sourceId, targetId, checksum);
  });
}

async function freeSlug(ctx: ImportContext, lang: string, slug: string): Promise<string> {
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (
      !(await ctx.app.db
        .selectFrom('posts')
        .select('id')
        .where('lang', '=', lang)
        .where('slug', '=', candidate)
        .executeTakeFirst())
    )
      return candidate;
  }
}

/** Language and translation group of every page and post WPML knows. */
async function languagesOf(
  ctx: ImportContext,
): Promise<Map<number, { lang: string; trid: number; source: string | null }>> {
  const out = new Map<number, { lang: string; trid: number; source: string | null }>();
  if (!ctx.wp.has('icl_translations')) return out;
  const rows = await ctx.wp.db.query<{
    element_id: number;
    trid: number;
    language_code: string;
    source_language_code: string | null;
  }>(
    `SELECT element_id, trid, language_code, source_language_code FROM ${ctx.wp.table('icl_translations')} WHERE element_type IN ('post_page', 'post_post')`,
  );
  for (const r of rows)
    out.set(Number(r.element_id), {
      lang: String(r.language_code),
      trid: Number(r.trid),
      source: r.source_language_code,
    });
  return out;
}

/** Items of one WPML translation group share our trid: the id of the group's original. */
async function linkTranslations(
  ctx: ImportContext,
  languages: Map<number, { lang: string; trid: number; source: string | null }>,
): Promise<void> {
  const mapped = await ctx.state.mappings('content');
  const groups = new Map<number, { target: number; original: boolean }[]>();
  for (const [sourceId, info] of languages) {
    const m = mapped.get(String(sourceId));
    if (!m) continue;
    let g = groups.get(info.trid);
    if (!g) groups.set(info.trid, (g = []));
    g.push({ target: Number(m.targetId), original: info.source === null });
  }
  for (const members of groups.values()) {
    if (members.length < 2) continue;
    const trid = (members.find((m) => m.original) ?? members[0]!).target;
    await ctx.app.db
      .updateTable('posts')
      .set({ trid })
      .where(
        'id',
        'in',
        members.map((m) => m.target),
      )
      .execute();
  }
}

/** The front page and posts page (`show_on_front`, `page_on_front`, `page_for_posts`) point to the imported pages. */
async function mapFrontPages(ctx: ImportContext, report: KindReport): Promise<void> {
  const show = await ctx.wp.option('show_on_front');
  if (show !== 'page' && show !== 'posts') return;
  const options: Record<string, unknown> = { show_on_front: show };
  for (const name of ['page_on_front', 'page_for_posts'] as const) {
    const source = Number(await ctx.wp.option(name));
    if (!source) continue;
    const m = await ctx.state.mapping('content', source);
    if (m) options[name] = Number(m.targetId);
    else report.note(`${name} (${source}) was not imported`);
  }
  const changed = Object.fromEntries(
    Object.entries(options).filter(([name, value]) => ctx.app.options.get(name) !== value),
  );
  if (Object.keys(changed).length) await ctx.app.options.setMany(changed);
}

/** The status a trashed item had (`_wp_trash_meta_status`). */
async function trashedStatus(ctx: ImportContext, id: number): Promise<string | null> {
  const rows = await ctx.wp.db.query<{ meta_value: string }>(
    `SELECT meta_value FROM ${ctx.wp.table('postmeta')} WHERE post_id = ? AND meta_key = '_wp_trash_meta_status'`,
    [id],
  );
  return rows[0] ? String(rows[0].meta_value) : null;
}

interface Attachment {
  file: string;
  width: number;
  height: number;
}

/** Featured images of the posts: post id → the attachment's file and size. */
async function thumbnailsOf(ctx: ImportContext, ids: number[]): Promise<Map<number, Attachment>> {
  const out = new Map<number, Attachment>();
  if (!ids.length) return out;
  const meta = ctx.wp.table('postmeta');
  const rows = await ctx.wp.db.query<{ post_id: number; file: string | null; metadata: string | null }>(
    `SELECT t.post_id, f.meta_value AS file, m.meta_value AS metadata FROM ${meta} t
       LEFT JOIN ${meta} f ON f.post_id = t.meta_value AND f.meta_key = '_wp_attached_file'
       LEFT JOIN ${meta} m ON m.post_id = t.meta_value AND m.meta_key = '_wp_attachment_metadata'
     WHERE t.meta_key = '_thumbnail_id' AND t.post_id IN (?)`,
    [ids],
  );
  for (const r of rows) {
    if (!r.file) continue;
    const md = phpValue(r.metadata) as { width?: unknown; height?: unknown } | undefined;
    out.set(Number(r.post_id), {
      file: String(r.file),
      width: Number(md?.width) || 0,
      height: Number(md?.height) || 0,
    });
  }
  return out;
}

/** The featured image as our thumbnail; its file is copied from --uploads into DATA_DIR/uploads. */
async function thumbnailFields(
  ctx: ImportContext,
  report: KindReport,
  a: Attachment | undefined,
  base: string,
): Promise<Pick<ItemFields, 'thumbnail_url' | 'thumbnail_width' | 'thumbnail_height'>> {
  const none = { thumbnail_url: null, thumbnail_width: null, thumbnail_height: null };
  if (!a) return none;
  const relative = path.posix.normalize(a.file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) {
    report.skip('featured image with a path outside the uploads folder');
    return none;
  }
  if (!ctx.uploadsDir) {
    report.note(
      'featured images are linked, but their files were not copied: give --uploads <wp-content/uploads folder>',
    );
  } else if (!ctx.dryRun) {
    const from = path.join(ctx.uploadsDir, relative);
    const to = path.join(ctx.app.config.dataDir, 'uploads', relative);
    if (fs.existsSync(from)) {
      await fs.promises.mkdir(path.dirname(to), { recursive: true });
      await fs.promises.copyFile(from, to);
    } else {
      report.note(`featured image file ${relative} is not in the uploads folder`);
    }
  }
  const sized = a.width >= 1 && a.width <= 10000 && a.height >= 1 && a.height <= 10000;
  return {
    thumbnail_url: `${base}/uploads/${relative}`,
    thumbnail_width: sized ? a.width : null,
    thumbnail_height: sized ? a.height : null,
  };
}
