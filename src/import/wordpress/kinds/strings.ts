// WPML String Translation (`icl_strings`, `icl_string_translations`, `icl_string_packages`)
// into the string registry of i18n/st/v1, through its own functions (registerPackage,
// registerString, saveStringTranslation), so that every rule of the registry applies. WPML's
// `context` is the text domain, its `gettext_context` our context. Languages other than the
// site's (en, de) are reported and left out. WPML's statuses are the registry's
// (0 not translated, 1 waiting, 2 in progress, 3 needs update, 10 complete); others count as
// not translated.
import {
  registerPackage,
  isActiveLanguage,
  findStringId,
  registerString,
  saveStringTranslation,
  STATUS,
} from '../../../namespaces/i18n-st/api.ts';
import type { ImportContext, ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { fingerprint } from '../state.ts';

const BATCH = 1000;
const STATUSES = new Set<number>(Object.values(STATUS));

interface WpString {
  id: number;
  language: string;
  context: string;
  name: string;
  value: string;
  string_package_id: number | null;
  gettext_context: string;
  translation_priority: string | null;
}

interface WpStringTranslation {
  string_id: number;
  language: string;
  status: number;
  value: string | null;
  translator_id: number | null;
}

interface WpPackage {
  ID: number;
  kind_slug: string;
  name: string;
  title: string;
  edit_link: string;
  view_link: string;
}

export const stringsKind: ImportKind = {
  name: 'strings',
  plugin: { name: 'WPML String Translation', tables: ['icl_strings', 'icl_string_translations'] },
  async run(ctx, report) {
    const { wp } = ctx;
    report.available = await wp.count('icl_strings');
    const stage = ctx.progress.stage('strings', report.available);
    const packages = wp.has('icl_string_packages') ? await importPackages(ctx, report) : new Map<number, number>();
    const known = await ctx.state.mappings('strings');
    const users = await ctx.state.mappings('users');
    let done = 0;
    for await (const batch of wp.batches<WpString & Record<string, unknown>>(
      `SELECT id, language, context, name, value, string_package_id, gettext_context, translation_priority FROM ${wp.table('icl_strings')}`,
      'id',
      0,
      BATCH,
    )) {
      const translations = await wp.db.query<WpStringTranslation & Record<string, unknown>>(
        `SELECT string_id, language, status, value, translator_id FROM ${wp.table('icl_string_translations')} WHERE string_id IN (?) ORDER BY id`,
        [batch.map((s) => s.id)],
      );
      for (const s of batch) {
        stage.update(++done);
        const own = translations.filter((t) => Number(t.string_id) === Number(s.id));
        await importString(ctx, report, s, own, packages, known, users);
      }
    }
    stage.finish(
      `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedTotal} skipped`,
    );
  },
};

/** Packages first (strings point to them): source id → ours. */
async function importPackages(ctx: ImportContext, report: KindReport): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  const known = await ctx.state.mappings('string_packages');
  const rows = await ctx.wp.db.query<WpPackage & Record<string, unknown>>(
    `SELECT ID, kind_slug, name, title, edit_link, view_link FROM ${ctx.wp.table('icl_string_packages')} ORDER BY ID`,
  );
  let imported = 0;
  for (const p of rows) {
    const input = {
      kind: String(p.kind_slug),
      name: String(p.name),
      title: String(p.title || p.name),
      viewLink: String(p.view_link ?? ''),
      editLink: String(p.edit_link ?? ''),
    };
    const checksum = fingerprint(input);
    const previous = known.get(String(p.ID));
    if (previous?.checksum === checksum) {
      out.set(Number(p.ID), Number(previous.targetId));
      continue;
    }
    if (ctx.dryRun) {
      imported++;
      continue;
    }
    try {
      // registerPackage creates or updates by kind and name.
      const id = await registerPackage(ctx.app, input);
      await ctx.state.map(ctx.app.db, 'string_packages', p.ID, id, checksum);
      out.set(Number(p.ID), id);
      imported++;
    } catch (err) {
      report.skip(`string package refused: ${(err as Error).message}`);
    }
  }
  if (imported) report.note(`string packages: ${imported} ${ctx.dryRun ? 'would be ' : ''}imported or updated`);
  return out;
}

async function importString(
  ctx: ImportContext,
  report: KindReport,
  s: WpString,
  translations: WpStringTranslation[],
  packages: Map<number, number>,
  known: Map<string, { targetId: string; checksum: string }>,
  users: Map<string, { targetId: string }>,
): Promise<void> {
  const language = String(s.language || 'en');
  if (!isActiveLanguage(language)) {
    report.skip(`source language "${language}" is not one of this site's (en, de)`);
    return;
  }
  const packageId = s.string_package_id ? (packages.get(Number(s.string_package_id)) ?? null) : null;
  const input = {
    domain: String(s.context),
    context: String(s.gettext_context ?? ''),
    name: String(s.name),
    value: String(s.value),
    language,
    translationPriority: s.translation_priority ? String(s.translation_priority) : undefined,
    packageId,
  };
  const usable = translations
    .filter((t) => isActiveLanguage(t.language) && t.language !== language)
    .map((t) => ({
      language: String(t.language),
      value: t.value === null ? null : String(t.value),
      status: STATUSES.has(Number(t.status)) ? Number(t.status) : STATUS.NOT_TRANSLATED,
      translatorId: t.translator_id ? Number(users.get(String(t.translator_id))?.targetId ?? 0) || null : null,
    }));
  const dropped = translations.length - usable.length;
  if (dropped) report.skip('translation into a language this site does not have', dropped);
  const checksum = fingerprint({ input, usable });
  const previous = known.get(String(s.id));
  if (previous?.checksum === checksum) {
    report.unchanged++;
    return;
  }
  // The registry knows a string by domain, context and name: one registered here by other means is a conflict.
  if (!previous && (await findStringId(ctx.app, input)) !== null) {
    if (ctx.onConflict !== 'overwrite') {
      report.conflict(
        `string ${s.id} (${input.domain} / ${input.name}) is registered here already — kept as it is (--on-conflict overwrite takes WordPress's)`,
      );
      report.skip('string registered here already');
      return;
    }
    report.conflict(
      `string ${s.id} (${input.domain} / ${input.name}) is registered here already — value and translations overwritten`,
    );
  }
  if (ctx.dryRun) {
    if (previous) report.updated++;
    else report.imported++;
    return;
  }
  try {
    const result = await registerString(ctx.app, input);
    for (const t of usable)
      await saveStringTranslation(ctx.app, result.id, t.language, {
        value: t.value,
        status: t.status,
        translatorId: t.translatorId,
      });
    await ctx.state.map(ctx.app.db, 'strings', s.id, result.id, checksum);
    if (previous) report.updated++;
    else report.imported++;
  } catch (err) {
    report.skip(`refused by the string registry: ${(err as Error).message}`);
  }
}
