// Tiny helpers that keep the logger catalogue readable as data.
import type { LoggerDef } from '../../../site/activity.ts';

export type Text = { en: string; de: string };

export function t(en: string, de: string): Text {
  return { en, de };
}

export function logger(def: LoggerDef): LoggerDef {
  return def;
}
