// Tiny helpers that keep the logger catalogue readable as data.
export type Text = { en: string; de: string };

export function t(en: string, de: string): Text {
  return { en, de };
}

/** A search option of a logger: a label for these message keys (the logger's, as defineLogger checks). */
export function option<const Key extends string>(
  label: Text,
  ...messageKeys: Key[]
): { label: Text; messageKeys: Key[] } {
  return { label, messageKeys };
}
