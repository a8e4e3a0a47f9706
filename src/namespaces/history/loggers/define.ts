// Tiny helpers that keep the logger catalogue readable as data.
import type { LoggerDef } from '../../../site/activity.ts';

export type Text = { en: string; de: string };

export function t(en: string, de: string): Text {
  return { en, de };
}

/** A search option of a logger: a label for these message keys. */
export function option(label: Text, ...messageKeys: string[]): { label: Text; messageKeys: string[] } {
  return { label, messageKeys };
}

export function logger(def: LoggerDef): LoggerDef {
  return def;
}
