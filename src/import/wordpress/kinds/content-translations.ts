// Languages and translation groups of the content import (content.ts), from WPML's
// icl_translations: each item's language, and one trid of ours for the items of a group.
import type { ImportContext } from '../context.ts';

/** Language and translation group of every page and post WPML knows. */
export async function languagesOf(
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
export async function linkTranslations(
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
