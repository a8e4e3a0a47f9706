// The public slider reads behind the sliderx routes, and the import (a write and its activity-log entries). Success bodies have the reference's
// shape `{success: true, message: "", …payload}`; errors are thrown as SliderError and sent
// as `{success: false, message, code, data: {status}}` with an honest HTTP status.
//
// Decisions where the reference is silent or vendor-specific:
// - GET /sliders selects by `alias` (checked first) or `id`; with neither it lists the
//   sliders (`{success, message, sliders: [{id, alias, title, slides}]}`).
// - GET /sliders/<slider>: digits = id (unless `alias=true` is sent), anything else = alias.
// - `slideid=1,2` on the full-slider reads restricts the slides returned.
// - GET /sliders/stream/<ids>: the listed slides in the order given; a repeated id is
//   returned once, at its first position, and listed in `duplicates`; unknown ids are
//   listed in `missing`; 404 when none exists; 400 for empty items ("1,,2") or over 100 ids.
// - GET /sliders/modal/<slider>: `{id, alias, bg, sp, addons, htmlid, html}`; bg/sp are ""
//   when the modal cover is off, as the reference.
import crypto from 'node:crypto';
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import { parseIdList } from '../../rest/id-list.ts';
import { localize } from './model.ts';
import { linksInLanguage } from './links.ts';
import { fullSlider, modalHtml, publicSlide } from './render.ts';
import {
  getSlide,
  getSliderByAlias,
  getSliderById,
  getSlides,
  getSlidesByIds,
  listSliders,
  writeSliders,
  type ImportResult,
  type StoredSlider,
} from './store.ts';
import type { SliderData } from './model.ts';
import { sliderxLogger } from './logger.ts';
import { CLI_ORIGIN, loggerEntry, recordWrite, type ActivityOrigin } from '../../site/activity.ts';

export class SliderError extends RestError {}

const MSG = {
  notFound: { en: 'Slider not found.', de: 'Slider nicht gefunden.' },
  slideNotFound: { en: 'Slide not found.', de: 'Slide nicht gefunden.' },
  slidesNotFound: { en: 'None of the requested slides exists.', de: 'Keiner der angefragten Slides existiert.' },
  badIds: {
    en: 'Slide ids must be numbers separated by single commas.',
    de: 'Slide-IDs müssen durch einzelne Kommas getrennte Zahlen sein.',
  },
  tooMany: {
    en: 'At most 100 slide ids can be requested at once.',
    de: 'Es können höchstens 100 Slide-IDs auf einmal angefragt werden.',
  },
  badId: { en: 'The slider id must be a number.', de: 'Die Slider-ID muss eine Zahl sein.' },
  badSlideFilter: {
    en: 'slideid must be slide ids separated by commas.',
    de: 'slideid muss aus durch Kommas getrennten Slide-IDs bestehen.',
  },
};

export const MAX_STREAM_IDS = 100;

function err(code: string, msg: { en: string; de: string }, status: number, lang: Lang): SliderError {
  return new SliderError(code, msg[lang], status);
}

function ok(payload: Record<string, unknown>): Record<string, unknown> {
  return { success: true, message: '', ...payload };
}

async function slidesFor(app: AppServices, slider: StoredSlider, slideFilter: string | undefined, lang: Lang) {
  let slides = await getSlides(app, slider.id);
  if (slideFilter !== undefined && slideFilter !== '') {
    const ids = parseIdList(slideFilter);
    if (!ids) throw err('sliderx_invalid_slideid', MSG.badSlideFilter, 400, lang);
    const wanted = new Set(ids);
    slides = slides.filter((s) => wanted.has(s.id));
  }
  return linksInLanguage(app, slides, lang);
}

export interface SliderQuery {
  alias?: string;
  id?: string;
  /** `alias=true` on /sliders/<slider>: the path value is an alias even when it is digits. */
  aliasFlag?: boolean;
  slideid?: string;
}

async function fullResponse(
  app: AppServices,
  slider: StoredSlider,
  lang: Lang,
  slideFilter?: string,
): Promise<Record<string, unknown>> {
  return ok(fullSlider(slider, await slidesFor(app, slider, slideFilter, lang), lang));
}

/** GET /sliders */
export async function getSliders(app: AppServices, q: SliderQuery, lang: Lang): Promise<Record<string, unknown>> {
  if (q.alias !== undefined && q.alias !== '') {
    const slider = await getSliderByAlias(app, q.alias);
    if (!slider) throw err('sliderx_not_found', MSG.notFound, 404, lang);
    return fullResponse(app, slider, lang, q.slideid);
  }
  if (q.id !== undefined && q.id !== '') {
    if (!/^\d+$/.test(q.id)) throw err('sliderx_invalid_id', MSG.badId, 400, lang);
    const slider = await getSliderById(app, q.id.length > 16 ? 0 : Number(q.id));
    if (!slider) throw err('sliderx_not_found', MSG.notFound, 404, lang);
    return fullResponse(app, slider, lang, q.slideid);
  }
  const sliders = await listSliders(app);
  return ok({
    sliders: sliders.map((s) => ({ id: s.id, alias: s.alias, title: localize(s.title, lang), slides: s.slideCount })),
  });
}

async function findSlider(app: AppServices, key: string, aliasFlag: boolean): Promise<StoredSlider | null> {
  if (/^\d+$/.test(key) && !aliasFlag) return getSliderById(app, key.length > 16 ? 0 : Number(key));
  return getSliderByAlias(app, key);
}

/** GET /sliders/<slider> */
export async function getSlider(
  app: AppServices,
  key: string,
  q: SliderQuery,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const slider = await findSlider(app, key, q.aliasFlag ?? false);
  if (!slider) throw err('sliderx_not_found', MSG.notFound, 404, lang);
  return fullResponse(app, slider, lang, q.slideid);
}

/** GET /sliders/slides/<slide_id>: the slide's slider, in full. */
export async function getSliderOfSlide(
  app: AppServices,
  slideId: string,
  q: SliderQuery,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const slide = await getSlide(app, slideId.length > 16 ? 0 : Number(slideId));
  if (!slide) throw err('sliderx_slide_not_found', MSG.slideNotFound, 404, lang);
  const slider = (await getSliderById(app, slide.sliderId))!;
  return fullResponse(app, slider, lang, q.slideid);
}

/** GET /sliders/stream/<slide_ids> */
export async function getStream(app: AppServices, idsText: string, lang: Lang): Promise<Record<string, unknown>> {
  const ids = parseIdList(idsText);
  if (!ids) throw err('sliderx_invalid_slide_ids', MSG.badIds, 400, lang);
  if (ids.length > MAX_STREAM_IDS) throw err('sliderx_too_many_slide_ids', MSG.tooMany, 400, lang);
  const seen = new Set<number>();
  const order: number[] = [];
  const duplicates: number[] = [];
  for (const id of ids) {
    if (seen.has(id)) {
      if (!duplicates.includes(id)) duplicates.push(id);
    } else {
      seen.add(id);
      order.push(id);
    }
  }
  const found = new Map(
    (await linksInLanguage(app, [...(await getSlidesByIds(app, order)).values()], lang)).map((s) => [s.id, s]),
  );
  const missing = order.filter((id) => !found.has(id));
  if (found.size === 0) throw err('sliderx_slides_not_found', MSG.slidesNotFound, 404, lang);
  const aliases = new Map<number, string>();
  const data = [];
  for (const id of order) {
    const slide = found.get(id);
    if (!slide) continue;
    if (!aliases.has(slide.sliderId)) aliases.set(slide.sliderId, (await getSliderById(app, slide.sliderId))!.alias);
    data.push({ ...publicSlide(slide, lang), slider_alias: aliases.get(slide.sliderId)! });
  }
  return ok({ data, missing, duplicates });
}

/** GET /sliders/modal/<slider> */
export async function getModal(
  app: AppServices,
  key: string,
  q: SliderQuery,
  lang: Lang,
): Promise<Record<string, unknown>> {
  const slider = await findSlider(app, key, q.aliasFlag ?? false);
  if (!slider) throw err('sliderx_not_found', MSG.notFound, 404, lang);
  const slides = await linksInLanguage(app, await getSlides(app, slider.id), lang);
  const m = slider.settings.modal;
  const bg = m.cover ? m.bg : '';
  const sp = m.cover ? m.sp : '';
  const htmlid = `sliderx-modal-${slider.alias}`;
  return ok({
    id: slider.id,
    alias: slider.alias,
    bg,
    sp,
    addons: [],
    htmlid,
    html: modalHtml(slider, slides, lang, htmlid, bg, sp),
  });
}

/** Strong ETag of a response body. */
export function etagOf(body: unknown): string {
  return `"${crypto.createHash('sha256').update(JSON.stringify(body)).digest('base64url').slice(0, 32)}"`;
}

/** Whether an If-None-Match header value matches the ETag (weak comparison, `*` matches). */
export function matchesIfNoneMatch(header: string | string[] | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const values = (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
  const bare = etag.replace(/^W\//, '');
  return values.some((v) => v === '*' || v.replace(/^W\//, '') === bare);
}

/** Imports validated sliders in one transaction (store.writeSliders), then records each in the activity log
 * (by default as the command line's write). */
export async function importSliders(
  app: AppServices,
  sliders: SliderData[],
  origin: ActivityOrigin = CLI_ORIGIN,
): Promise<ImportResult[]> {
  const results = await writeSliders(app, sliders);
  for (const [i, r] of results.entries()) {
    await recordWrite(
      app,
      loggerEntry(sliderxLogger, r.action === 'created' ? 'slider_created' : 'slider_updated', {
        slider_id: r.id,
        slider_alias: r.alias,
        slider_title: localize(sliders[i]!.title, 'en'),
        slide_count: r.slides,
      }),
      origin,
    );
  }
  return results;
}
