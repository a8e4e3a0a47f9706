// Slider and slide shapes, their defaults, and language resolution (the check of imported data
// is import-check.ts). Translatable texts are stored as a plain string (same in every language)
// or as `{en, de}`; a reader gets the text of the effective language, falling back to English,
// then to the other language.
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

export function localize(text: Text | undefined, lang: Lang): string {
  if (text === undefined) return '';
  if (typeof text === 'string') return text;
  return text[lang] ?? text.en ?? text.de ?? '';
}
