// The settings sections as forms, generated from the published `settings/schema`: one row per
// control (inputs, lists of lines, object lists with keep/add, template fields with their
// check), for the fields `GET settings` answered for this user. The controls' names are those
// client/sched-form.ts reads back, on the server (a plain form post) and in the page's script.
import { fmt } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import {
  ADD,
  controlName,
  COUNT,
  isLineList,
  isObjectList,
  KEEP,
  typesOf,
  type PublishedSchema,
} from '../client/sched-form.ts';
import { API } from './rest.ts';
import type { TemplateCheck } from './template-check.ts';

interface SectionSchema {
  title: string;
  readOnly?: boolean;
  properties: Record<string, PublishedSchema>;
}

/** One control (or the start/end of a group of them) of a section's form, as the template draws it. */
type Row = Record<string, unknown> & { kind: string };

/** A name made readable (`first_name` → `First name`): the label of a field or status item without one. */
export const humanize = (name: string) => (name.charAt(0).toUpperCase() + name.slice(1)).replace(/_/g, ' ');
/** A field's label in the console's language (its name, readable, for a field without one). */
const labelOf = (ctx: ConsoleContext, name: string) => ctx.t[`scField_${name}` as ConsoleStringKey] ?? humanize(name);
const idOf = (name: string) => `sc-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** The rows of one field (and of its properties or items), from its schema and current value. */
function fieldRows(
  ctx: ConsoleContext,
  schema: PublishedSchema,
  path: (string | number)[],
  label: string,
  value: unknown,
  checks: Map<string, TemplateCheck>,
  rows: Row[],
): void {
  const { t } = ctx;
  const name = controlName(path);
  const id = idOf(name);
  const types = typesOf(schema);
  if (isObjectList(schema)) {
    const items = Array.isArray(value) ? value : [];
    rows.push({ kind: 'open', legend: label, id });
    rows.push({ kind: 'hidden', name: `${name}.${COUNT}`, value: String(items.length + 1) });
    items.forEach((item, i) => {
      const itemLabel = fmt(t.scItem, { list: label, n: i + 1 });
      rows.push({ kind: 'open', legend: itemLabel, id: idOf(`${name}.${i}`) });
      rows.push({
        kind: 'keep',
        name: `${name}.${i}.${KEEP}`,
        id: idOf(`${name}.${i}.${KEEP}`),
        label: fmt(t.scKeepItem, { item: itemLabel }),
      });
      objectRows(ctx, schema.items!, [...path, i], item, checks, rows);
      rows.push({ kind: 'close' });
    });
    const n = items.length;
    rows.push({ kind: 'open', legend: fmt(t.scNewItem, { list: label }), id: idOf(`${name}.${n}`) });
    rows.push({
      kind: 'add',
      name: `${name}.${n}.${ADD}`,
      id: idOf(`${name}.${n}.${ADD}`),
      label: fmt(t.scAddItem, { list: label }),
    });
    objectRows(ctx, schema.items!, [...path, n], {}, checks, rows);
    rows.push({ kind: 'close' });
    rows.push({ kind: 'close' });
    return;
  }
  if (schema.properties && types.includes('object')) {
    rows.push({ kind: 'open', legend: label, id });
    objectRows(ctx, schema, path, value, checks, rows);
    rows.push({ kind: 'close' });
    return;
  }
  const base = { name, id, label, help: '' as string };
  if (schema.readOnly) {
    rows.push({
      kind: 'readonly',
      ...base,
      value: value === null || value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value),
    });
  } else if (isLineList(schema)) {
    rows.push({
      kind: 'textarea',
      ...base,
      value: Array.isArray(value) ? value.join('\n') : '',
      rows: 3,
      help: t.scOnePerLine,
    });
  } else if (types.length === 1 && types[0] === 'boolean') {
    rows.push({ kind: 'checkbox', ...base, checked: value === true });
  } else if (schema.enum) {
    rows.push({
      kind: 'select',
      ...base,
      options: schema.enum.map((v) => ({ value: String(v), selected: v === value })),
    });
  } else if (schema['x-format'] === 'twig-template') {
    const check = checks.get(name);
    rows.push({
      kind: 'template',
      ...base,
      value: typeof value === 'string' ? value : '',
      rows: (schema.maxLength ?? 0) > 1000 ? 8 : 2,
      check,
      previewLabel: fmt(t.scPreviewOf, { field: label }),
    });
  } else if (schema['x-format'] === 'css' || (schema.maxLength ?? 0) > 1000) {
    rows.push({ kind: 'textarea', ...base, value: typeof value === 'string' ? value : '', rows: 6 });
  } else {
    const number = (types.includes('integer') || types.includes('number')) && !types.includes('string');
    rows.push({
      kind: 'input',
      ...base,
      type: schema.writeOnly ? 'password' : number ? 'number' : schema.format === 'email' ? 'email' : 'text',
      value: value === null || value === undefined ? '' : String(value),
      min: schema.minimum ?? '',
      max: schema.maximum ?? '',
      help: types.includes('boolean') && types.length > 1 ? t.scTrueFalse : schema.writeOnly ? t.scSecret : '',
    });
  }
}

function objectRows(
  ctx: ConsoleContext,
  schema: PublishedSchema,
  path: (string | number)[],
  value: unknown,
  checks: Map<string, TemplateCheck>,
  rows: Row[],
): void {
  const values = value && typeof value === 'object' ? (value as Record<string, unknown>) : {};
  for (const [key, prop] of Object.entries(schema.properties ?? {})) {
    // An item's id and schema version travel with it; when it was last changed is set on save.
    if (key === 'last_modified') continue;
    if (key === 'id' || key === 'schema') {
      if (values[key] !== undefined)
        rows.push({ kind: 'hidden', name: controlName([...path, key]), value: String(values[key]) });
      continue;
    }
    fieldRows(ctx, prop, [...path, key], labelOf(ctx, key), values[key], checks, rows);
  }
}

export async function loadSchema(ctx: ConsoleContext): Promise<Record<string, SectionSchema>> {
  const out = await ctx.api('GET', `${API}/settings/schema`);
  return (out.body as { properties: Record<string, SectionSchema> }).properties;
}

/** The forms of the sections the user may see, with the posted values of one shown again when given. */
export function sectionForms(
  ctx: ConsoleContext,
  schema: Record<string, SectionSchema>,
  settings: Record<string, Record<string, unknown>>,
  posted: { section: string; values: Record<string, unknown> } | undefined,
  checks: Map<string, TemplateCheck>,
) {
  const { t } = ctx;
  return Object.entries(schema)
    .filter(([slug]) => settings[slug] && typeof settings[slug] === 'object')
    .map(([slug, def]) => {
      const current = posted?.section === slug ? { ...settings[slug], ...posted.values } : settings[slug]!;
      // The fields GET settings answered for this user: the API's visibility rules decide.
      const shown = Object.keys(def.properties).filter((f) => Object.hasOwn(current, f) && f !== 'schema_version');
      const rows: Row[] = [];
      for (const field of shown)
        fieldRows(
          ctx,
          def.readOnly ? { ...def.properties[field]!, readOnly: true } : def.properties[field]!,
          [field],
          labelOf(ctx, field),
          current[field],
          checks,
          rows,
        );
      // Every section has an `enabled`: ids carry the section.
      for (const row of rows) if (typeof row.id === 'string') row.id = `${slug}-${row.id}`;
      const editable = def.readOnly ? [] : shown.filter((f) => !def.properties[f]!.readOnly);
      const titleKey = `scSection_${slug}` as ConsoleStringKey;
      return {
        slug,
        title: t[titleKey] ?? def.title,
        rows,
        fields: editable.join(','),
        editable: editable.length > 0,
        headingId: `section-${slug}-heading`,
      };
    });
}
