// PHP-serialized values as WordPress stores them in options and meta (lengths in bytes).
import { unserialize } from 'php-serialize';

/** The value of serialized PHP text; plain text stays as it is; undefined when it is damaged. */
export function phpValue(text: string | null): unknown {
  if (text === null) return null;
  if (!/^(?:[aOsbidN]:|N;)/.test(text)) return text;
  try {
    // Not strict: objects of classes we do not know become plain objects.
    return unserialize(Buffer.from(text, 'utf8'), {}, { strict: false });
  } catch {
    return undefined;
  }
}

/** A PHP array as a list of its values (PHP arrays unserialize to objects when their keys are not 0…n-1). */
export function phpList(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  if (value && typeof value === 'object') return Object.values(value);
  return [];
}
