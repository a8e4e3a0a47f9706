// Appointment settings of Simply Schedule Appointments (the option `ssa_settings_json`, all
// sections as one JSON document) into sched/v1's settings: every field sched/v1 knows is
// validated as if posted to its REST route; fields it does not know, or values it refuses,
// are reported and left out. Appointment types and appointments are not modelled here.
import type { AuthUser } from '../../../auth/types.ts';
import {
  SECTION_BY_SLUG,
  prepareSectionWrite,
  type SettingsCtx,
  loadSections,
  saveSection,
} from '../../../namespaces/sched/api.ts';
import type { ImportKind } from '../context.ts';
import { fingerprint } from '../state.ts';

/** The importer acts with every capability (it copies what an administrator configured). */
const IMPORTER: AuthUser = {
  id: 0,
  login: 'importer',
  email: '',
  displayName: 'Importer',
  role: 'administrator',
  can: () => true,
};

export const schedKind: ImportKind = {
  name: 'sched',
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    const json = await wp.option('ssa_settings_json');
    if (json === undefined) {
      report.skippedBecause = 'no Simply Schedule Appointments settings (option ssa_settings_json) at the source';
      return;
    }
    let settings: Record<string, unknown>;
    try {
      settings = JSON.parse(json) as Record<string, unknown>;
      if (!settings || typeof settings !== 'object' || Array.isArray(settings)) throw new Error('not an object');
    } catch (err) {
      report.skippedBecause = `ssa_settings_json is not a JSON object (${(err as Error).message})`;
      return;
    }
    const sctx: SettingsCtx = { app, user: IMPORTER, lang: 'en' };
    const stored = await loadSections(app.db);
    const known = await state.mappings('sched_sections');
    const sections = Object.entries(settings).filter(([, v]) => v && typeof v === 'object' && !Array.isArray(v)) as [
      string,
      Record<string, unknown>,
    ][];
    report.available = sections.length;
    const stage = ctx.progress.stage('sched', sections.length);
    const unknownFields: string[] = [];
    for (const [slug, source] of sections) {
      const def = SECTION_BY_SLUG.get(slug);
      if (!def || def.readOnlySection) {
        report.skip(def ? 'section describes the modules of the old site' : 'section not known here');
        continue;
      }
      const valid: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(source)) {
        const f = def.fields[name];
        if (!f || f.readOnly) {
          if (!f && name !== 'schema_version' && name !== 'last_updated' && !(name in (def.computed ?? {})))
            unknownFields.push(`${slug}.${name}`);
          continue;
        }
        const problems: Record<string, string[]> = {};
        prepareSectionWrite(def, { [name]: value }, {}, sctx, false, problems);
        const message = Object.values(problems).flat()[0];
        if (message) report.conflict(`setting ${slug}.${name} refused: ${message}`);
        else valid[name] = value;
      }
      const checksum = fingerprint(valid);
      if (!report.tally(known.get(slug), checksum) || ctx.dryRun) continue;
      const fields = prepareSectionWrite(def, valid, stored.get(slug)?.fields ?? {}, sctx, false, {});
      await app.db.transaction().execute(async (tx) => {
        await saveSection(tx, slug, fields);
        await state.map(tx, 'sched_sections', slug, slug, checksum);
      });
    }
    if (unknownFields.length)
      report.note(
        `settings sched/v1 does not have, left out: ${unknownFields.slice(0, 15).join(', ')}${unknownFields.length > 15 ? ` and ${unknownFields.length - 15} more` : ''}`,
      );
    const types = wp.has('ssa_appointment_types') ? await wp.count('ssa_appointment_types') : 0;
    if (types)
      report.note(
        `${types} appointment type(s) at the source: appointment types are not modelled here and stay behind`,
      );
    stage.finish(`${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged sections`);
  },
};
