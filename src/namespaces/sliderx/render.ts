// The slider shapes sent to clients (texts in the effective language) and the modal markup.
import type { Lang } from '../../rest/types.ts';
import { escapeAttr, escapeHtml, safeUrl } from '../../site/html.ts';
import { localize } from './model.ts';
import type { StoredSlide, StoredSlider } from './store.ts';

export interface PublicLayer {
  id: string;
  type: string;
  content: string;
  link?: string;
  alt?: string;
  position: { x: number; y: number };
}

export interface PublicSlide {
  id: number;
  slider_id: number;
  order: number;
  title: string;
  image: string;
  thumb: string;
  link: string;
  params: Record<string, unknown>;
  layers: PublicLayer[];
}

export function publicSlide(slide: StoredSlide, lang: Lang): PublicSlide {
  return {
    id: slide.id,
    slider_id: slide.sliderId,
    order: slide.order,
    title: localize(slide.title, lang),
    image: slide.image,
    thumb: slide.thumb,
    link: slide.link,
    params: { ...slide.params },
    layers: slide.layers.map((l) => {
      const out: PublicLayer = {
        id: l.id,
        type: l.type,
        content: localize(l.content, lang),
        position: { ...l.position },
      };
      if (l.link !== undefined) out.link = l.link;
      if (l.alt !== undefined) out.alt = localize(l.alt, lang);
      // key order: id, type, content, link?, alt?, position
      const { position, ...rest } = out;
      return { ...rest, position };
    }),
  };
}

/** The full slider object: id, alias, title, settings, slides in order, static slide (none). */
export function fullSlider(slider: StoredSlider, slides: StoredSlide[], lang: Lang): Record<string, unknown> {
  return {
    id: slider.id,
    alias: slider.alias,
    title: localize(slider.title, lang),
    settings: slider.settings,
    slides: slides.map((s) => publicSlide(s, lang)),
    static_slide: null,
  };
}

const LABELS = {
  en: { prev: 'Previous slide', next: 'Next slide', goto: 'Go to slide', close: 'Close', slides: 'Slides' },
  de: { prev: 'Vorheriger Slide', next: 'Nächster Slide', goto: 'Gehe zu Slide', close: 'Schließen', slides: 'Slides' },
} as const;

function layerHtml(layer: PublicLayer): string {
  const pos = `data-layer-id="${escapeAttr(layer.id)}" data-x="${layer.position.x}" data-y="${layer.position.y}"`;
  switch (layer.type) {
    case 'text':
      return `<div class="sliderx-layer sliderx-layer-text" ${pos}>${escapeHtml(layer.content)}</div>`;
    case 'button': {
      const href = safeUrl(layer.link ?? '');
      return href
        ? `<a class="sliderx-layer sliderx-layer-button" ${pos} href="${escapeAttr(href)}">${escapeHtml(layer.content)}</a>`
        : `<span class="sliderx-layer sliderx-layer-button" ${pos}>${escapeHtml(layer.content)}</span>`;
    }
    case 'image': {
      const src = safeUrl(layer.content);
      return src
        ? `<img class="sliderx-layer sliderx-layer-image" ${pos} src="${escapeAttr(src)}" alt="${escapeAttr(layer.alt ?? '')}">`
        : '';
    }
    case 'video': {
      const src = safeUrl(layer.content);
      return src
        ? `<video class="sliderx-layer sliderx-layer-video" ${pos} src="${escapeAttr(src)}" controls preload="none"></video>`
        : '';
    }
    default:
      return '';
  }
}

/** The modal (lightbox) markup of a slider; every text and attribute value is escaped. */
export function modalHtml(
  slider: StoredSlider,
  slides: StoredSlide[],
  lang: Lang,
  htmlId: string,
  bg: string,
  sp: number | string,
): string {
  const t = LABELS[lang];
  const s = slider.settings;
  const title = localize(slider.title, lang);
  const items = slides.map((raw) => {
    const slide = publicSlide(raw, lang);
    const img = safeUrl(slide.image);
    const link = safeUrl(slide.link);
    return (
      `<li class="sliderx-slide" data-slide-id="${slide.id}" data-transition="${escapeAttr(String(slide.params.transition ?? ''))}" data-duration="${escapeAttr(String(slide.params.duration ?? ''))}">` +
      (img ? `<img class="sliderx-bg" src="${escapeAttr(img)}" alt="${escapeAttr(slide.title)}">` : '') +
      slide.layers.map(layerHtml).join('') +
      (link ? `<a class="sliderx-slide-link" href="${escapeAttr(link)}">${escapeHtml(slide.title)}</a>` : '') +
      `</li>`
    );
  });
  const nav: string[] = [];
  if (s.navigation.arrows) {
    nav.push(
      `<button type="button" class="sliderx-prev" aria-label="${escapeAttr(t.prev)}"></button><button type="button" class="sliderx-next" aria-label="${escapeAttr(t.next)}"></button>`,
    );
  }
  if (s.navigation.bullets) {
    nav.push(
      `<div class="sliderx-bullets">${slides.map((sl, i) => `<button type="button" class="sliderx-bullet" data-slide-id="${sl.id}" aria-label="${escapeAttr(`${t.goto} ${i + 1}`)}"></button>`).join('')}</div>`,
    );
  }
  if (s.navigation.thumbnails) {
    nav.push(
      `<div class="sliderx-thumbs">${slides
        .map((sl) => {
          const th = safeUrl(sl.thumb);
          return th
            ? `<img class="sliderx-thumb" data-slide-id="${sl.id}" src="${escapeAttr(th)}" alt="${escapeAttr(localize(sl.title, lang))}">`
            : '';
        })
        .join('')}</div>`,
    );
  }
  return (
    `<div id="${escapeAttr(htmlId)}" class="sliderx-modal" role="dialog" aria-modal="true" aria-label="${escapeAttr(title)}" data-bg="${escapeAttr(bg)}" data-speed="${escapeAttr(String(sp))}">` +
    `<button type="button" class="sliderx-modal-close" aria-label="${escapeAttr(t.close)}"></button>` +
    `<div class="sliderx" data-alias="${escapeAttr(slider.alias)}" data-layout="${escapeAttr(s.layout)}" data-width="${s.width}" data-height="${s.height}" data-autoplay="${s.autoplay ? 'true' : 'false'}" data-delay="${s.delay}">` +
    `<ul class="sliderx-slides" aria-label="${escapeAttr(t.slides)}">${items.join('')}</ul>` +
    (nav.length ? `<nav class="sliderx-nav">${nav.join('')}</nav>` : '') +
    `</div></div>`
  );
}
