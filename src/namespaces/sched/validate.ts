// Settings fields: plain JSON Schema (so GET settings/schema can publish them as they are),
// checked by the kernel's document check (rest/schema/documents.ts), plus optional `x-check`
// names resolved to the checks below (timezone, colour, date format…).
import { isEmail } from '../../rest/schema/formats.ts';
import { checkDocument, isCssColor, type DocumentSchema } from '../../rest/schema/documents.ts';
import { isValidTimeZone } from '../../site/time.ts';

export type CheckName =
  | 'timezone'
  | 'color'
  | 'php-date-format'
  | 'twig-template'
  | 'css'
  | 'locale'
  | 'date'
  | 'recipient'
  | 'css-length'
  | 'font';

export type FieldSchema = DocumentSchema<CheckName>;

function runCheck(name: CheckName, value: unknown): string | null {
  if (typeof value !== 'string') return null;
  switch (name) {
    case 'timezone':
      return value === '' || !isValidTimeZone(value) ? `"${value}" is not a valid IANA timezone name` : null;
    case 'color':
      return isCssColor(value) ? null : `"${value}" is not a colour (#rgb, #rrggbb, rgb() or rgba())`;
    case 'php-date-format':
      return /[<>]/.test(value) ? 'a date format may not contain < or >' : null;
    case 'css':
      return /<\/?\s*(style|script)/i.test(value) || /expression\s*\(|javascript:/i.test(value)
        ? 'the CSS contains markup or script'
        : null;
    case 'locale':
      return /^[a-z]{2,3}(_[A-Z]{2})?$/.test(value) ? null : `"${value}" is not a locale such as de_DE`;
    case 'date':
      return /^\d{4}-\d{2}-\d{2}$/.test(value) &&
        !Number.isNaN(Date.parse(value + 'T00:00:00Z')) &&
        new Date(value + 'T00:00:00Z').toISOString().startsWith(value)
        ? null
        : `"${value}" is not a date YYYY-MM-DD`;
    case 'recipient':
      return isEmail(value) || /^\{\{\s*[A-Za-z_][A-Za-z0-9_.]*\s*\}\}$/.test(value)
        ? null
        : `"${value}" is neither an email address nor a template token such as {{customer_email}}`;
    case 'css-length':
      return /^(0|\d+(\.\d+)?(px|rem|em|%|vh|vw|pt))$/.test(value)
        ? null
        : `"${value}" is not a CSS length such as 1rem or 12px`;
    case 'font':
      return /^[A-Za-z0-9 ,'"_-]{0,100}$/.test(value) ? null : `"${value}" is not a font family name`;
    case 'twig-template':
      return null; // checked in the template box, before the write (settings.ts checkTemplates)
  }
}

/**
 * A settings field's value checked against its schema: problems pushed onto `errors`, the value
 * returned lightly coerced ("true"/"false" strings for booleans, numeric strings for integers,
 * as form-encoded clients send them).
 */
export function checkFieldValue(schema: FieldSchema, value: unknown, path: string, errors: string[]): unknown {
  return checkDocument(schema, value, path, errors, { check: runCheck });
}

/** The schema as published (JSON Schema only: our `x-check` becomes a description hint). */
export function publishSchema(schema: FieldSchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, val] of Object.entries(schema)) {
    if (k === 'x-check') {
      if (val === 'color') out.pattern ??= '^(#[0-9a-fA-F]{3,8}|rgba?\\(.*\\))$';
      out['x-format'] = val;
      continue;
    }
    if (k === 'items' && val) out.items = publishSchema(val as FieldSchema);
    else if (k === 'properties' && val)
      out.properties = Object.fromEntries(
        Object.entries(val as Record<string, FieldSchema>).map(([p, s]) => [p, publishSchema(s)]),
      );
    else if (k === 'additionalProperties' && val && typeof val === 'object')
      out.additionalProperties = publishSchema(val as FieldSchema);
    else out[k] = val;
  }
  return out;
}

/**
 * The strings in `value` that `schema` marks with `check`, with their paths, for checks that
 * run elsewhere (templates: in the template box). Strings and lists beyond their schema's
 * bounds are left out: the schema check refuses them anyway.
 */
export function collectChecked(
  schema: FieldSchema,
  value: unknown,
  path: string,
  check: CheckName,
  out: { path: string; source: string }[] = [],
): { path: string; source: string }[] {
  if (typeof value === 'string') {
    if (schema['x-check'] === check && value.length <= (schema.maxLength ?? Infinity))
      out.push({ path, source: value });
  } else if (Array.isArray(value)) {
    const items = schema.items;
    if (items)
      value
        .slice(0, schema.maxItems ?? value.length)
        .forEach((item, i) => collectChecked(items, item, `${path}[${i}]`, check, out));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const ps =
        schema.properties && Object.hasOwn(schema.properties, k)
          ? schema.properties[k]
          : typeof schema.additionalProperties === 'object'
            ? schema.additionalProperties
            : undefined;
      if (ps) collectChecked(ps, v, `${path}.${k}`, check, out);
    }
  }
  return out;
}
