// Settings of sched/v1 (reference plugins.md §2.3): reading, checking and writing the sections
// (settings-sections.ts), stored in `sched_settings`.
import type { AppServices } from '../../site/services.ts';
import { utcNow } from '../../site/time.ts';
import { ownValue } from '../../util.ts';
import { userCan } from './caps.ts';
import { SECTION_BY_SLUG, SECTIONS, type FieldDef, type SectionDef, type SettingsCtx } from './settings-sections.ts';
import { deleteSection, getMeta, loadSectionForUpdate, loadSections, saveMeta, saveSection } from './store.ts';
import { checkFieldValue, collectChecked, publishSchema } from './validate.ts';
import { TemplateLimitError } from './twig-errors.ts';
import { validateInBox } from './template-box.ts';

export const REDACTED = 'redacted-writeonly-secret';

/** Names that may appear in a written section without being fields (the output's extras). */
function ignorableKeys(def: SectionDef): Set<string> {
  return new Set(['schema_version', 'last_updated', ...Object.keys(def.computed ?? {})]);
}

function defaultOf(f: FieldDef, ctx: SettingsCtx): unknown {
  const d = typeof f.default === 'function' ? (f.default as (c: SettingsCtx) => unknown)(ctx) : f.default;
  return structuredClone(d);
}

/** Stored fields merged over defaults (rule 1), unredacted, without computed fields. */
function rawSection(
  def: SectionDef,
  stored: Record<string, unknown> | undefined,
  ctx: SettingsCtx,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    out[name] =
      !def.readOnlySection && stored && Object.hasOwn(stored, name) && !f.readOnly ? stored[name] : defaultOf(f, ctx);
  }
  return out;
}

interface ReadOptions {
  /** Remove fields the user may not see (default true). */
  filter?: boolean;
  /** Replace secrets with the placeholder (default true). */
  redact?: boolean;
}

function presentSection(
  def: SectionDef,
  stored: { fields: Record<string, unknown>; updatedAt: string } | undefined,
  ctx: SettingsCtx,
  secret: string,
  opts: ReadOptions = {},
): Record<string, unknown> {
  const filter = opts.filter !== false;
  const redact = opts.redact !== false;
  const raw = rawSection(def, stored?.fields, ctx);
  const out: Record<string, unknown> = {};
  for (const [name, f] of Object.entries(def.fields)) {
    if (filter && f.capability && !userCan(ctx.user, f.capability)) continue;
    let v = raw[name];
    if (f.writeonlySecret && redact && typeof v === 'string' && v !== '') v = REDACTED;
    out[name] = v;
  }
  if (def.slug === 'global' && !out.timezone_string) out.timezone_string = 'UTC';
  for (const [name, c] of Object.entries(def.computed ?? {})) {
    if (filter && c.capability && !userCan(ctx.user, c.capability)) continue;
    out[name] = c.compute(raw, ctx, secret);
  }
  out.schema_version = def.version;
  out.last_updated = stored ? stored.updatedAt : (out.last_updated ?? null);
  return out;
}

/** GET settings: every section, filtered for the caller. */
export async function getAllSettings(ctx: SettingsCtx, opts: ReadOptions = {}): Promise<Record<string, unknown>> {
  const [stored, meta] = await Promise.all([loadSections(ctx.app.db), getMeta(ctx.app)]);
  const out: Record<string, unknown> = {};
  for (const def of SECTIONS) out[def.slug] = presentSection(def, stored.get(def.slug), ctx, meta.site_secret, opts);
  out.last_updated = meta.last_updated;
  return out;
}

/** GET settings/<id>: one section, or null when there is no such section. */
export async function getSection(ctx: SettingsCtx, slug: string): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  const [stored, meta] = await Promise.all([loadSections(ctx.app.db), getMeta(ctx.app)]);
  return presentSection(def, stored.get(def.slug), ctx, meta.site_secret);
}

/** Raw stored+default values of a section (server-side use: debug flags, templates). */
export async function readSectionValues(app: AppServices, slug: string): Promise<Record<string, unknown>> {
  const def = SECTION_BY_SLUG.get(slug);
  if (!def) throw new Error(`unknown section ${slug}`);
  const stored = await loadSections(app.db);
  return rawSection(def, stored.get(slug)?.fields, { app, user: null, lang: 'en' });
}

export class SettingsValidationError extends Error {
  problems: Record<string, string[]>;
  constructor(problems: Record<string, string[]>) {
    super(
      Object.entries(problems)
        .map(([k, v]) => `${k}: ${v.join('; ')}`)
        .join(' | '),
    );
    this.problems = problems;
  }
}

/**
 * Checks the templates among the written fields in the template box, one after another (outside
 * any transaction: a write may carry hundreds). Problems go to `problems[<section>.<field>]`; a
 * template beyond the box's limits throws its TemplateLimitError, naming the field.
 */
async function checkTemplates(
  def: SectionDef,
  input: Record<string, unknown>,
  problems: Record<string, string[]>,
): Promise<void> {
  for (const [name, value] of Object.entries(input)) {
    const f = Object.hasOwn(def.fields, name) ? def.fields[name] : undefined;
    if (!f) continue;
    for (const { path, source } of collectChecked(f.schema, value, name, 'twig-template')) {
      try {
        const r = await validateInBox(source);
        if (!r.success) (problems[`${def.slug}.${name}`] ??= []).push(`${path}: ${r.error ?? 'invalid template'}`);
      } catch (err) {
        if (err instanceof TemplateLimitError) err.param = `${def.slug}.${path}`;
        throw err;
      }
    }
  }
}

/**
 * Validates fields for a section. `replace` = the section object replaces the stored one
 * (POST settings, import); otherwise fields merge into it. Returns the fields to store.
 * Problems are collected into `problems[<section>.<field>]`.
 */
export function prepareSectionWrite(
  def: SectionDef,
  input: Record<string, unknown>,
  current: Record<string, unknown>,
  ctx: SettingsCtx,
  replace: boolean,
  problems: Record<string, string[]>,
): Record<string, unknown> {
  const next: Record<string, unknown> = replace ? rawSection(def, undefined, ctx) : { ...current };
  const ignorable = ignorableKeys(def);
  for (const [name, value] of Object.entries(input)) {
    const key = `${def.slug}.${name}`;
    // A field of the section's own: {"constructor":1} found Object's constructor (a 500).
    const f = ownValue(def.fields, name);
    if (!f) {
      if (!ignorable.has(name)) (problems[key] ??= []).push(`unknown field "${name}" of section "${def.slug}"`);
      continue;
    }
    if (f.readOnly) continue;
    if (f.capability && !userCan(ctx.user, f.capability)) {
      (problems[key] ??= []).push(`you may not change "${name}"`);
      continue;
    }
    if (f.writeonlySecret && value === REDACTED) {
      next[name] = current[name];
      continue;
    }
    const errors: string[] = [];
    let v = f.beforeSave && f.normalizeBeforeCheck ? f.beforeSave(value) : value;
    v = checkFieldValue(f.schema, v, name, errors);
    if (!errors.length && f.check) {
      const msg = f.check(v);
      if (msg) errors.push(`${name}: ${msg}`);
    }
    if (errors.length) {
      (problems[key] ??= []).push(...errors);
      continue;
    }
    if (f.beforeSave && !f.normalizeBeforeCheck) v = f.beforeSave(v);
    next[name] = v;
  }
  // Readonly fields are never stored.
  for (const [name, f] of Object.entries(def.fields)) if (f.readOnly) delete next[name];
  return next;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return !!v && typeof v === 'object' && !Array.isArray(v);
}

/**
 * POST/PUT/PATCH settings/<id>: field-level merge into one section. Returns null when the
 * section does not exist; throws SettingsValidationError on invalid input.
 */
export async function updateSection(
  ctx: SettingsCtx,
  slug: string,
  input: Record<string, unknown>,
): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  if (def.readOnlySection)
    throw new SettingsValidationError({
      [def.slug]: ['this section is read-only: it lists the modules of this server'],
    });
  const meta = await getMeta(ctx.app);
  const templateProblems: Record<string, string[]> = {};
  await checkTemplates(def, input, templateProblems);
  const now = utcNow();
  // Read-modify-write in one transaction; on PostgreSQL the row is locked, so concurrent
  // field updates of the same section never lose each other's changes.
  const next = await ctx.app.db.transaction().execute(async (tx) => {
    const stored = await loadSectionForUpdate(tx, def.slug, ctx.app.dialect === 'postgres');
    const current = rawSection(def, stored, ctx);
    const problems: Record<string, string[]> = Object.assign(Object.create(null), templateProblems); // keyed by the caller's section names
    const fields = prepareSectionWrite(def, input, current, ctx, false, problems);
    if (Object.keys(problems).length) throw new SettingsValidationError(problems);
    await saveSection(tx, def.slug, fields, now);
    return fields;
  });
  return presentSection(def, { fields: next, updatedAt: now }, ctx, meta.site_secret);
}

/** Validates a whole settings object (POST settings, import). Returns the sections to store. */
export async function prepareSettingsWrite(
  ctx: SettingsCtx,
  input: Record<string, unknown>,
  stored: Map<string, { fields: Record<string, unknown> }>,
  problems: Record<string, string[]>,
): Promise<Map<string, Record<string, unknown>>> {
  const out = new Map<string, Record<string, unknown>>();
  for (const [slug, value] of Object.entries(input)) {
    if (slug === 'last_updated') continue;
    const def = SECTION_BY_SLUG.get(slug);
    if (!def) {
      (problems[slug] ??= []).push(`unknown settings section "${slug}"`);
      continue;
    }
    if (!isPlainObject(value)) {
      (problems[slug] ??= []).push(`section "${slug}" must be an object`);
      continue;
    }
    if (def.readOnlySection) continue; // exported with the settings; this server's modules are fixed
    await checkTemplates(def, value, problems);
    const current = rawSection(def, stored.get(slug)?.fields, ctx);
    out.set(slug, prepareSectionWrite(def, value, current, ctx, true, problems));
  }
  return out;
}

/** POST settings: section-level replace of the given sections; returns the complete settings. */
export async function updateSettings(
  ctx: SettingsCtx,
  input: Record<string, unknown>,
): Promise<{ settings: Record<string, unknown>; sections: string[] }> {
  const meta = await getMeta(ctx.app);
  const stored = await loadSections(ctx.app.db);
  const problems: Record<string, string[]> = Object.create(null); // keyed by the caller's section names
  const writes = await prepareSettingsWrite(ctx, input, stored, problems);
  if (Object.keys(problems).length) throw new SettingsValidationError(problems);
  const now = utcNow();
  await ctx.app.db.transaction().execute(async (tx) => {
    for (const [slug, fields] of writes) await saveSection(tx, slug, fields, now);
    await saveMeta(tx, { ...meta, last_updated: now }, now);
  });
  return { settings: await getAllSettings(ctx), sections: [...writes.keys()] };
}

/** DELETE settings/<id>: back to defaults; returns the section (null when unknown). */
export async function resetSection(ctx: SettingsCtx, slug: string): Promise<Record<string, unknown> | null> {
  const def = SECTION_BY_SLUG.get(slug.toLowerCase());
  if (!def) return null;
  await deleteSection(ctx.app.db, def.slug);
  const meta = await getMeta(ctx.app);
  return presentSection(def, undefined, ctx, meta.site_secret);
}

/** GET settings/schema: a JSON Schema (draft 2020-12) of every section. */
export function settingsJsonSchema(): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const def of SECTIONS) {
    const props: Record<string, unknown> = {};
    for (const [name, f] of Object.entries(def.fields)) {
      const s = publishSchema(f.schema);
      const d = typeof f.default === 'function' ? undefined : f.default;
      props[name] = {
        ...s,
        ...(d !== undefined ? { default: d } : {}),
        ...(f.readOnly ? { readOnly: true } : {}),
        ...(f.writeonlySecret ? { writeOnly: true, 'x-redacted-as': REDACTED } : {}),
        ...(f.capability ? { 'x-required-capability': f.capability } : {}),
      };
    }
    for (const [name, c] of Object.entries(def.computed ?? {})) {
      props[name] = {
        ...publishSchema(c.schema),
        readOnly: true,
        'x-computed': true,
        ...(c.capability ? { 'x-required-capability': c.capability } : {}),
      };
    }
    props.schema_version = { type: 'string', const: def.version, readOnly: true };
    props.last_updated = {
      type: ['string', 'null'],
      readOnly: true,
      description: 'UTC YYYY-MM-DD HH:MM:SS of the last save',
    };
    properties[def.slug] = {
      type: 'object',
      title: def.title,
      'x-schema-version': def.version,
      ...(def.readOnlySection ? { readOnly: true } : {}),
      properties: props,
      additionalProperties: false,
    };
  }
  properties.last_updated = { type: ['string', 'null'], readOnly: true };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: 'sched/v1/settings',
    title: 'sched settings',
    type: 'object',
    properties,
    additionalProperties: false,
  };
}
