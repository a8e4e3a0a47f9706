// One page or post of the content import (content.ts) written here: updated in place when an
// earlier run brought it over, otherwise inserted under its source id when free, with the
// slug conflicts --on-conflict settles (skip, rename, overwrite) and suffixes for slugs the
// source uses twice (our addresses are flat).
import { RESERVED_SLUGS } from '../../../pages/api.ts';
import type { ImportContext } from '../context.ts';
import type { KindReport } from '../report.ts';
import { fingerprint } from '../state.ts';

export type ItemFields = {
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

export async function importItem(
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
