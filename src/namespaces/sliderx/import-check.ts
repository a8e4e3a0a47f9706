// The check of imported slider data (`slider import`, the seed): a slider, its slides and their
// layers against the shapes of model.ts, with the defaults filled in and every problem named by
// its path (the checks of single values are import-values.ts).
import { isCssColor } from '../../rest/schema/documents.ts';
import {
  DEFAULT_SETTINGS,
  DEFAULT_SLIDE_PARAMS,
  LAYER_TYPES,
  LAYOUTS,
  TRANSITIONS,
  type Layer,
  type SlideData,
  type SliderData,
  type SliderSettings,
  type Text,
} from './model.ts';
import { checkBool, checkEnum, checkInt, checkText, checkUrl, isObject, Issues, unknownKeys } from './import-values.ts';

const ALIAS_RE = /^[a-zA-Z0-9_-]+$/;
const MAX_SLIDES = 200;
const MAX_LAYERS = 50;

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

function checkSlider(v: unknown, path: string, issues: Issues): SliderData | null {
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
