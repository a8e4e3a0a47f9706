// The appointment settings forms as data, shared by the server (which renders them and reads
// their plain posts) and the page's script (which sends the same values to the REST API): a
// settings section's fields, from the published settings schema (`sched/v1/settings/schema`),
// become form controls named `f.<field>[.<property>|.<index>…]`, and the posted controls become
// the section's typed values again. No DOM here: both sides pass a reader of the posted fields.

/** A field's schema as `settings/schema` publishes it (the parts the forms use). */
export interface PublishedSchema {
  type?: string | string[];
  enum?: unknown[];
  format?: string;
  'x-format'?: string;
  readOnly?: boolean;
  writeOnly?: boolean;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  items?: PublishedSchema;
  properties?: Record<string, PublishedSchema>;
  required?: string[];
}

/** Reads one posted control by name (undefined when it was not posted, e.g. an unchecked box). */
export type FieldReader = (name: string) => string | undefined;

export const FIELD_PREFIX = 'f';
/** The hidden control that lists the section's editable fields, comma-separated. */
export const FIELDS_CONTROL = '_fields';

export function controlName(path: (string | number)[]): string {
  return [FIELD_PREFIX, ...path].join('.');
}

export function typesOf(schema: PublishedSchema): string[] {
  return Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
}

/** Whether a field is shown as a list of lines (a list of texts or numbers). */
export function isLineList(schema: PublishedSchema): boolean {
  const item = schema.items ? typesOf(schema.items) : [];
  return typesOf(schema).includes('array') && (item.includes('string') || item.includes('integer'));
}

/** Whether a field is a list of objects (each item a group of controls). */
export function isObjectList(schema: PublishedSchema): boolean {
  return typesOf(schema).includes('array') && !!schema.items?.properties;
}

/** A list's item controls: `<list>.<i>._keep` marks a shown item, `<list>.<i>._add` a new one to add. */
export const KEEP = '_keep';
export const ADD = '_add';
export const COUNT = '_count';

/**
 * The typed value of the controls of one field, or undefined when the form did not carry it
 * (the API then leaves the stored value as it is).
 */
export function readValue(schema: PublishedSchema, path: (string | number)[], read: FieldReader): unknown {
  const name = controlName(path);
  const types = typesOf(schema);
  if (isObjectList(schema)) {
    const count = Number(read(`${name}.${COUNT}`) ?? 0);
    const items: unknown[] = [];
    for (let i = 0; i < count && i < 1000; i++) {
      const item = `${name}.${i}`;
      if (read(`${item}.${KEEP}`) === undefined && read(`${item}.${ADD}`) === undefined) continue;
      items.push(readValue({ ...schema.items!, type: 'object' }, [...path, i], read));
    }
    return items;
  }
  if (schema.properties && types.includes('object')) {
    const out: Record<string, unknown> = {};
    for (const [key, prop] of Object.entries(schema.properties)) {
      if (prop.readOnly) continue;
      const v = readValue(prop, [...path, key], read);
      // An empty list of an optional property is the property left out, as stored.
      if (v === undefined || (Array.isArray(v) && v.length === 0 && !schema.required?.includes(key))) continue;
      out[key] = v;
    }
    return out;
  }
  if (isLineList(schema)) {
    const raw = read(name);
    if (raw === undefined) return undefined;
    const lines = raw
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    return typesOf(schema.items!).includes('integer') ? lines.map((l) => (/^-?\d+$/.test(l) ? Number(l) : l)) : lines;
  }
  if (types.length === 1 && types[0] === 'boolean') {
    // A checkbox: shown (its item or section is in the form) and unchecked means false.
    return read(name) !== undefined;
  }
  const raw = read(name);
  if (raw === undefined) return undefined;
  if (types.includes('boolean') && (raw === 'true' || raw === 'false')) return raw === 'true';
  if ((types.includes('integer') || types.includes('number')) && !types.includes('string')) {
    // An empty number is left as stored; anything else goes to the API, which says what is wrong.
    return raw === '' ? undefined : /^-?\d+(\.\d+)?$/.test(raw) ? Number(raw) : raw;
  }
  return raw;
}

/** A section's values from its form: the fields the form lists as editable. */
export function readSection(properties: Record<string, PublishedSchema>, read: FieldReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const field of (read(FIELDS_CONTROL) ?? '').split(',')) {
    const schema = Object.hasOwn(properties, field) ? properties[field] : undefined;
    if (!schema || schema.readOnly) continue;
    const v = readValue(schema, [field], read);
    if (v !== undefined) out[field] = v;
  }
  return out;
}
