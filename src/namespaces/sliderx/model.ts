// Slider and slide shapes, defaults, validation of imported data, and language resolution.
// Translatable texts are stored as a plain string (same in every language) or as
// `{en, de}`; a reader gets the text of the effective language, falling back to English,
// then to the other language.
import { checkDocument, isCssColor, type DocumentSchema } from '../../rest/schema/documents.ts';
import type { Lang } from '../../rest/types.ts';

export type Text = string | { en?: string; de?: string };

export const LAYOUTS = ['auto', 'fullwidth', 'fullscreen'] as const;
export const TRANSITIONS = ['fade', 'slide', 'zoom', 'none'] as const;
export const LAYER_TYPES = ['text', 'image', 'button', 'video'] as const;
export type LayerType = (typeof LAYER_TYPES)[number];

export interface SliderSettings {
  layout: (typeof LAYOUTS)[number];
  width: number;
  height: number;
  autoplay: boolean;
  /** Milliseconds each slide is shown. */
  delay: number;
  navigation: { arrows: boolean; bullets: boolean; thumbnails: boolean };
  /** Opening the slider as a modal (lightbox): cover = dim the page with `bg`, fade speed `sp` (seconds). */
  modal: { cover: boolean; bg: string; sp: number };
}

export interface Layer {
  id: string;
  type: LayerType;
  /** text/button: the text; image/video: the media URL. */
  content: Text;
  /** button: target URL. */
  link?: string;
  /** image: alternative text. */
  alt?: Text;
  position: { x: number; y: number };
}

export interface SlideParams {
  transition: (typeof TRANSITIONS)[number];
  /** Transition duration in milliseconds. */
  duration: number;
}

/** A slide as imported/exported (id optional on import). */
export interface SlideData {
  id?: number;
  title: Text;
  image: string;
  thumb: string;
  link: string;
  params: SlideParams;
  layers: Layer[];
}

export interface SliderData {
  id?: number;
  alias: string;
  title: Text;
  settings: SliderSettings;
  slides: SlideData[];
}

export const DEFAULT_SETTINGS: SliderSettings = {
  layout: 'auto',
  width: 1240,
  height: 600,
  autoplay: true,
  delay: 9000,
  navigation: { arrows: true, bullets: true, thumbnails: false },
  modal: { cover: true, bg: 'rgba(0,0,0,0.5)', sp: 1 },
};

export const DEFAULT_SLIDE_PARAMS: SlideParams = { transition: 'fade', duration: 600 };

export const ALIAS_RE = /^[a-zA-Z0-9_-]+$/;
const MAX_TEXT = 5000;
const MAX_SLIDES = 200;
const MAX_LAYERS = 50;

export function localize(text: Text | undefined, lang: Lang): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[lang] ?? text.en ?? text.de ?? '';
}

/** Collects problems as `path: message`. */
class Issues {
  list: string[] = [];
  add(path: string, message: string): void {
    this.list.push(`${path}: ${message}`);
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function checkText(v: unknown, path: string, issues: Issues, required: boolean): Text | undefined {
  if (v === undefined || v === null) {
    if (required) issues.add(path, 'is required');
    return undefined;
  }
  if (typeof v === 'string') {
    if ([...v].length > MAX_TEXT) issues.add(path, `must be at most ${MAX_TEXT} characters`);
    if (required && v.trim() === '') issues.add(path, 'must not be empty');
    return v;
  }
  if (isObject(v)) {
    const out: { en?: string; de?: string } = {};
    const keys = Object.keys(v);
    if (!keys.length) issues.add(path, 'needs an "en" or "de" text');
    for (const k of keys) {
      if (k !== 'en' && k !== 'de') {
        issues.add(`${path}.${k}`, 'is not a language of the site (en, de)');
        continue;
      }
      const s = v[k];
      if (typeof s !== 'string') issues.add(`${path}.${k}`, 'must be a string');
      else if ([...s].length > MAX_TEXT) issues.add(`${path}.${k}`, `must be at most ${MAX_TEXT} characters`);
      else out[k] = s;
    }
    return out;
  }
  issues.add(path, 'must be a string or an object {"en": …, "de": …}');
  return undefined;
}

/** '' or an http(s) URL or a site-relative path. */
function checkUrl(v: unknown, path: string, issues: Issues, required = false): string {
  if (v === undefined || v === null || v === '') {
    if (required) issues.add(path, 'is required');
    return '';
  }
  if (typeof v !== 'string') {
    issues.add(path, 'must be a URL string');
    return '';
  }
  if (v.length > 2000) {
    issues.add(path, 'must be at most 2000 characters');
    return '';
  }
  if (v.startsWith('/') && !v.startsWith('//') && !/[\s\\]/.test(v)) return v;
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    /* reported below */
  }
  issues.add(path, 'must be an http(s) URL or a path starting with /');
  return '';
}

/** Whether an imported value (JSON: never coerced) fits the schema of the kernel's document check. */
function fits(schema: DocumentSchema, v: unknown): boolean {
  const problems: string[] = [];
  checkDocument(schema, v, '', problems, { coerce: false });
  return problems.length === 0;
}

function checkInt(v: unknown, path: string, issues: Issues, min: number, max: number, fallback: number): number {
  if (v === undefined) return fallback;
  if (!fits({ type: 'integer', minimum: min, maximum: max }, v)) {
    issues.add(path, `must be an integer from ${min} to ${max}`);
    return fallback;
  }
  return v as number;
}

function checkBool(v: unknown, path: string, issues: Issues, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  if (!fits({ type: 'boolean' }, v)) {
    issues.add(path, 'must be true or false');
    return fallback;
  }
  return v as boolean;
}

function checkEnum<T extends string>(v: unknown, path: string, issues: Issues, values: readonly T[], fallback: T): T {
  if (v === undefined) return fallback;
  if (!fits({ type: 'string', enum: values }, v)) {
    issues.add(path, `must be one of ${values.join(', ')}`);
    return fallback;
  }
  return v as T;
}

function unknownKeys(obj: Record<string, unknown>, allowed: string[], path: string, issues: Issues): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) issues.add(`${path}.${k}`, 'is not a known field');
}

function checkSettings(v: unknown, path: string, issues: Issues): SliderSettings {
  const d = DEFAULT_SETTINGS;
  if (v === undefined) return structuredClone(d);
  if (!isObject(v)) {
    issues.add(path, 'must be an object');
    return structuredClone(d);
  }
  unknownKeys(v, ['layout', 'width', 'height', 'autoplay', 'delay', 'navigation', 'modal'], path, issues);
  const nav = v.navigation === undefined ? {} : v.navigation;
  const modal = v.modal === undefined ? {} : v.modal;
  if (!isObject(nav)) issues.add(`${path}.navigation`, 'must be an object');
  if (!isObject(modal)) issues.add(`${path}.modal`, 'must be an object');
  const n = isObject(nav) ? nav : {};
  const m = isObject(modal) ? modal : {};
  if (isObject(nav)) unknownKeys(n, ['arrows', 'bullets', 'thumbnails'], `${path}.navigation`, issues);
  if (isObject(modal)) unknownKeys(m, ['cover', 'bg', 'sp'], `${path}.modal`, issues);
  let bg = d.modal.bg;
  if (m.bg !== undefined) {
    if (typeof m.bg !== 'string' || !(m.bg.trim() === 'transparent' || isCssColor(m.bg.trim())))
      issues.add(`${path}.modal.bg`, 'must be a CSS colour (#rgb, #rrggbb, rgb(…), rgba(…) or transparent)');
    else bg = m.bg.trim();
  }
  let sp = d.modal.sp;
  if (m.sp !== undefined) {
    if (typeof m.sp !== 'number' || !Number.isFinite(m.sp) || m.sp < 0 || m.sp > 10)
      issues.add(`${path}.modal.sp`, 'must be a number of seconds from 0 to 10');
    else sp = m.sp;
  }
  return {
    layout: checkEnum(v.layout, `${path}.layout`, issues, LAYOUTS, d.layout),
    width: checkInt(v.width, `${path}.width`, issues, 1, 10000, d.width),
    height: checkInt(v.height, `${path}.height`, issues, 1, 10000, d.height),
    autoplay: checkBool(v.autoplay, `${path}.autoplay`, issues, d.autoplay),
    delay: checkInt(v.delay, `${path}.delay`, issues, 100, 600000, d.delay),
    navigation: {
      arrows: checkBool(n.arrows, `${path}.navigation.arrows`, issues, d.navigation.arrows),
      bullets: checkBool(n.bullets, `${path}.navigation.bullets`, issues, d.navigation.bullets),
      thumbnails: checkBool(n.thumbnails, `${path}.navigation.thumbnails`, issues, d.navigation.thumbnails),
    },
    modal: { cover: checkBool(m.cover, `${path}.modal.cover`, issues, d.modal.cover), bg, sp },
  };
}

function checkLayer(v: unknown, path: string, issues: Issues): Layer | null {
  if (!isObject(v)) {
    issues.add(path, 'must be an object');
    return null;
  }
  unknownKeys(v, ['id', 'type', 'content', 'link', 'alt', 'position'], path, issues);
  const type = checkEnum(v.type, `${path}.type`, issues, LAYER_TYPES, 'text');
  if (v.type === undefined) issues.add(`${path}.type`, 'is required');
  let id = '';
  if (typeof v.id !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(v.id))
    issues.add(`${path}.id`, 'must be 1 to 64 letters, digits, underscores or hyphens');
  else id = v.id;
  let content: Text = '';
  if (type === 'image' || type === 'video') content = checkUrl(v.content, `${path}.content`, issues, true);
  else content = checkText(v.content, `${path}.content`, issues, true) ?? '';
  const layer: Layer = { id, type, content, position: { x: 0, y: 0 } };
  if (v.link !== undefined) {
    if (type !== 'button') issues.add(`${path}.link`, 'only button layers have a link');
    else layer.link = checkUrl(v.link, `${path}.link`, issues);
  }
  if (v.alt !== undefined) {
    if (type !== 'image') issues.add(`${path}.alt`, 'only image layers have an alt text');
    else layer.alt = checkText(v.alt, `${path}.alt`, issues, false) ?? '';
  }
  if (v.position !== undefined) {
    if (!isObject(v.position)) issues.add(`${path}.position`, 'must be an object {x, y}');
    else {
      unknownKeys(v.position, ['x', 'y'], `${path}.position`, issues);
      layer.position = {
        x: checkInt(v.position.x, `${path}.position.x`, issues, -10000, 10000, 0),
        y: checkInt(v.position.y, `${path}.position.y`, issues, -10000, 10000, 0),
      };
    }
  }
  return layer;
}

function checkSlide(v: unknown, path: string, issues: Issues): SlideData | null {
  if (!isObject(v)) {
    issues.add(path, 'must be an object');
    return null;
  }
  unknownKeys(v, ['id', 'title', 'image', 'thumb', 'link', 'params', 'layers', 'order', 'slider_id'], path, issues);
  const slide: SlideData = {
    title: checkText(v.title, `${path}.title`, issues, false) ?? '',
    image: checkUrl(v.image, `${path}.image`, issues),
    thumb: checkUrl(v.thumb, `${path}.thumb`, issues),
    link: checkUrl(v.link, `${path}.link`, issues),
    params: { ...DEFAULT_SLIDE_PARAMS },
    layers: [],
  };
  if (v.id !== undefined) {
    if (typeof v.id !== 'number' || !Number.isInteger(v.id) || v.id < 1)
      issues.add(`${path}.id`, 'must be a positive integer');
    else slide.id = v.id;
  }
  if (v.params !== undefined) {
    if (!isObject(v.params)) issues.add(`${path}.params`, 'must be an object');
    else {
      unknownKeys(v.params, ['transition', 'duration'], `${path}.params`, issues);
      slide.params = {
        transition: checkEnum(
          v.params.transition,
          `${path}.params.transition`,
          issues,
          TRANSITIONS,
          DEFAULT_SLIDE_PARAMS.transition,
        ),
        duration: checkInt(
          v.params.duration,
          `${path}.params.duration`,
          issues,
          0,
          60000,
          DEFAULT_SLIDE_PARAMS.duration,
        ),
      };
    }
  }
  if (v.layers !== undefined) {
    if (!Array.isArray(v.layers)) issues.add(`${path}.layers`, 'must be an array');
    else {
      if (v.layers.length > MAX_LAYERS) issues.add(`${path}.layers`, `must have at most ${MAX_LAYERS} layers`);
      const ids = new Set<string>();
      v.layers.forEach((l, i) => {
        const layer = checkLayer(l, `${path}.layers[${i}]`, issues);
        if (!layer) return;
        if (layer.id && ids.has(layer.id)) issues.add(`${path}.layers[${i}].id`, `duplicates layer id "${layer.id}"`);
        ids.add(layer.id);
        slide.layers.push(layer);
      });
    }
  }
  return slide;
}

export function checkSlider(v: unknown, path: string, issues: Issues): SliderData | null {
  if (!isObject(v)) {
    issues.add(path, 'must be an object');
    return null;
  }
  unknownKeys(v, ['id', 'alias', 'title', 'settings', 'slides'], path, issues);
  let alias = '';
  if (typeof v.alias !== 'string' || !ALIAS_RE.test(v.alias) || v.alias.length > 100)
    issues.add(`${path}.alias`, 'must be 1 to 100 letters, digits, underscores or hyphens');
  else if (/^\d+$/.test(v.alias))
    issues.add(`${path}.alias`, 'must not be only digits (numbers address sliders by id)');
  else alias = v.alias;
  const slider: SliderData = {
    alias,
    title: checkText(v.title, `${path}.title`, issues, true) ?? '',
    settings: checkSettings(v.settings, `${path}.settings`, issues),
    slides: [],
  };
  if (v.slides !== undefined) {
    if (!Array.isArray(v.slides)) issues.add(`${path}.slides`, 'must be an array');
    else {
      if (v.slides.length > MAX_SLIDES) issues.add(`${path}.slides`, `must have at most ${MAX_SLIDES} slides`);
      const ids = new Set<number>();
      v.slides.forEach((s, i) => {
        const slide = checkSlide(s, `${path}.slides[${i}]`, issues);
        if (!slide) return;
        if (slide.id !== undefined) {
          if (ids.has(slide.id)) issues.add(`${path}.slides[${i}].id`, `duplicates slide id ${slide.id}`);
          ids.add(slide.id);
        }
        slider.slides.push(slide);
      });
    }
  }
  return slider;
}

/**
 * Validates an import document: `{"sliders": [ … ]}` (as `slider export` writes it, with an
 * optional `version: 1`) or a single slider object. Returns the sliders with defaults filled
 * in, or the list of problems.
 */
export function parseImport(doc: unknown): { sliders: SliderData[]; issues: string[] } {
  const issues = new Issues();
  const sliders: SliderData[] = [];
  let list: unknown[];
  let base = 'sliders';
  if (isObject(doc) && 'sliders' in doc) {
    unknownKeys(doc, ['version', 'sliders'], '(file)', issues);
    if (doc.version !== undefined && doc.version !== 1) issues.add('version', 'must be 1');
    if (!Array.isArray(doc.sliders)) {
      issues.add('sliders', 'must be an array');
      return { sliders, issues: issues.list };
    }
    list = doc.sliders;
  } else if (isObject(doc)) {
    list = [doc];
    base = 'slider';
  } else {
    issues.add('(file)', 'must be a JSON object: {"sliders": [...]} or one slider');
    return { sliders, issues: issues.list };
  }
  if (!list.length) issues.add('sliders', 'is empty');
  const aliases = new Set<string>();
  list.forEach((s, i) => {
    const path = base === 'slider' ? 'slider' : `sliders[${i}]`;
    const slider = checkSlider(s, path, issues);
    if (!slider) return;
    if (slider.alias && aliases.has(slider.alias))
      issues.add(`${path}.alias`, `"${slider.alias}" appears twice in the file`);
    aliases.add(slider.alias);
    sliders.push(slider);
  });
  return { sliders, issues: issues.list };
}
