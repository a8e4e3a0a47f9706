// `_fields`: keep only the listed top-level keys and dot paths (reference rest-core §2.9).
import { setOwn } from '../util.ts';
import { JsonList } from './json-list.ts';

/** Parses `_fields` from a comma/whitespace list or an array of such lists. */
export function parseFieldsParam(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  // Only texts name fields: String() of a map from the query (`_fields[a]=b`, no prototype) throws.
  const parts = (Array.isArray(value) ? value : [value]).flatMap((v) =>
    typeof v === 'string' || typeof v === 'number' ? String(v).split(/[\s,]+/) : [],
  );
  const fields = parts.map((p) => p.trim()).filter(Boolean);
  return fields;
}

interface FieldTree {
  [key: string]: FieldTree | true;
}

/**
 * Nodes without a prototype: the keys are the caller's, and `_fields=__proto__.x` walked into
 * Object.prototype and set `x` on every object of the process.
 */
function buildTree(fields: string[]): FieldTree {
  const tree: FieldTree = Object.create(null);
  for (const field of fields) {
    const path = field.split('.');
    let node: FieldTree = tree;
    for (let i = 0; i < path.length; i++) {
      const key = path[i]!;
      if (node[key] === true) break; // the parent is kept whole: deeper entries add nothing
      if (i === path.length - 1) {
        node[key] = true;
      } else {
        node[key] ??= Object.create(null) as FieldTree;
        node = node[key] as FieldTree;
      }
    }
  }
  return tree;
}

/** The kept keys in the data's own order (the reference intersects the item with the fields). */
function applyTree(data: unknown, tree: FieldTree): unknown {
  // Lists are kept whole, as the reference keeps them (a list sent as it is read too).
  if (data === null || typeof data !== 'object' || Array.isArray(data) || data instanceof JsonList) return data;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) {
    if (!Object.hasOwn(tree, key)) continue;
    const sub = tree[key]!;
    setOwn(out, key, sub === true ? value : applyTree(value, sub));
  }
  return out;
}

/** Applies `_fields` to an object, or to each item of a list. */
export function filterFields(data: unknown, fields: string[]): unknown {
  const tree = buildTree(fields);
  if (data instanceof JsonList) return data.mapItems((item) => applyTree(item, tree));
  return Array.isArray(data) ? data.map((item) => applyTree(item, tree)) : applyTree(data, tree);
}
