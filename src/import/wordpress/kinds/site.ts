// The site's settings: name, description, time zone (`timezone_string`, or `gmt_offset` as the
// matching fixed-offset zone), date and time formats, first day of the week and language.
import { isValidTimeZone } from '../../../site/time.ts';
import type { ImportKind } from '../context.ts';
import { fingerprint } from '../state.ts';

/** A whole-hour offset as the IANA fixed-offset zone (whose sign is inverted: Etc/GMT-2 is UTC+2). */
export function offsetZone(offset: number): string | null {
  if (!Number.isInteger(offset) || offset < -12 || offset > 14) return null;
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

export const siteKind: ImportKind = {
  name: 'site',
  async run(ctx, report) {
    const { wp, app, state } = ctx;
    const options = await wp.loadOptions();
    const wanted: Record<string, unknown> = {};
    const text = (name: string) => options.get(name);
    for (const name of ['blogname', 'blogdescription', 'date_format', 'time_format']) {
      const v = text(name);
      if (v !== undefined) wanted[name] = v;
    }
    const week = Number(text('start_of_week'));
    if (Number.isInteger(week) && week >= 0 && week <= 6) wanted.start_of_week = week;
    const zone = text('timezone_string') ?? '';
    const offsetText = text('gmt_offset') ?? '';
    if (zone && isValidTimeZone(zone)) wanted.timezone_string = zone;
    else if (offsetText !== '') {
      const offset = Number(offsetText);
      wanted.gmt_offset = offset;
      const fixed = offsetZone(offset);
      if (fixed) wanted.timezone_string = fixed;
      else
        report.note(
          `gmt_offset ${offsetText} is not a whole number of hours: kept as gmt_offset, the time zone stays as it was`,
        );
    }
    // An empty WPLANG is WordPress's default, US English.
    wanted.WPLANG = text('WPLANG') || 'en_US';
    if (!/^en|^de/.test(String(wanted.WPLANG)))
      report.note(`site language ${String(wanted.WPLANG)}: this site speaks English and German; texts stay in those`);
    report.available = Object.keys(wanted).length;
    const stage = ctx.progress.stage('site', report.available);
    const known = await state.mappings('options');
    const changed: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(wanted)) {
      if (report.tally(known.get(name), fingerprint(value))) changed[name] = value;
    }
    if (!ctx.dryRun && Object.keys(changed).length) {
      await app.options.setMany(changed);
      await app.db.transaction().execute(async (tx) => {
        for (const [name, value] of Object.entries(changed))
          await state.map(tx, 'options', name, name, fingerprint(value));
      });
    }
    stage.finish(`${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged`);
  },
};
