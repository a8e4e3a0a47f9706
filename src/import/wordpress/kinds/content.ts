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
//
// Here the kind's run: it reads the source in batches and decides status, language and fields;
// the text conversion is content-text.ts, writing an item content-items.ts, featured images
// content-thumbnails.ts, languages and translation groups content-translations.ts.
import { siteUrl as ourSiteUrl } from '../../../pages/api.ts';
import { syncIdSequence, mysqlDate, type ImportContext, type ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { htmlToText, ourSlug, plainTitle } from './content-text.ts';
import { importItem } from './content-items.ts';
import { thumbnailFields, thumbnailsOf } from './content-thumbnails.ts';
import { languagesOf, linkTranslations } from './content-translations.ts';

const BATCH = 200;
const LANGS = new Set(['en', 'de']);

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
