// Slider Revolution (`revslider_sliders`, `revslider_slides`) into sliderx. Slider Revolution
// keeps a slider's and a slide's settings as JSON in `params` (version 6; version 5 wrote
// flatter names, read too where they differ) and a slide's layers as JSON in `layers`. What
// sliderx models comes over — title, alias, layout, size, autoplay and delay, navigation; per
// slide title, background image, thumbnail, link; text, image, button and video layers with
// their position — and is validated by sliderx's own import (model.parseImport) before
// sliderx's importSliders writes it. The rest (animations, styles, responsive levels, shapes,
// groups) is reported and left behind.
import { parseImport, type SliderData, importSliders } from '../../../namespaces/sliderx/api.ts';
import type { ImportContext, ImportKind } from '../context.ts';
import type { KindReport } from '../report.ts';
import { fingerprint } from '../state.ts';

interface RevSlider {
  id: number;
  title: string;
  alias: string | null;
  params: string;
}

interface RevSlide {
  id: number;
  slider_id: number;
  slide_order: number;
  params: string;
  layers: string;
}

type Json = Record<string, unknown>;

function json(text: string | null): Json {
  try {
    const v = JSON.parse(text ?? '') as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {};
  } catch {
    return {};
  }
}

/** The first of several paths (a.b.c) that holds a value. */
function pick(obj: Json, ...paths: string[]): unknown {
  for (const p of paths) {
    let v: unknown = obj;
    for (const k of p.split('.')) v = v && typeof v === 'object' ? (v as Json)[k] : undefined;
    if (v !== undefined && v !== null && v !== '') return v;
  }
  return undefined;
}

function num(v: unknown, fallback: number): number {
  const n =
    typeof v === 'object' && v ? Number((v as Json).d ?? (v as Json).v) : Number(String(v ?? '').replace(/px$/, ''));
  return Number.isFinite(n) && n > 0 ? Math.round(n) : fallback;
}

function bool(v: unknown, fallback: boolean): boolean {
  if (v === undefined) return fallback;
  return v === true || v === 'on' || v === 'true' || v === 1 || v === '1';
}

const LAYER_TYPES: Record<string, 'text' | 'image' | 'button' | 'video'> = {
  text: 'text',
  image: 'image',
  button: 'button',
  video: 'video',
};

/** A slide's layers: an array (version 5) or an object keyed by layer id (version 6). */
function layerList(text: string | null): Json[] {
  let v: unknown;
  try {
    v = JSON.parse(text ?? '');
  } catch {
    return [];
  }
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
  return list.filter((l): l is Json => !!l && typeof l === 'object');
}

function convertSlide(sl: RevSlide, dropped: Set<string>): unknown {
  const sp = json(sl.params);
  const layers = [];
  for (const [i, l] of layerList(sl.layers).entries()) {
    const type = LAYER_TYPES[String(l.type ?? '')];
    if (!type) {
      dropped.add(String(l.type ?? 'unknown'));
      continue;
    }
    const content =
      type === 'image'
        ? pick(l, 'media.imageUrl', 'image_url')
        : type === 'video'
          ? pick(l, 'media.mpeg', 'media.youtube', 'video_data.urlMp4')
          : pick(l, 'text');
    if (typeof content !== 'string' || !content) continue;
    const link = pick(l, 'actions.action.0.image_link', 'link');
    layers.push({
      id: String(l.uid ?? l.unique_id ?? i + 1),
      type,
      content,
      ...(type === 'button' && typeof link === 'string' ? { link } : {}),
      position: {
        x: num(pick(l, 'position.x.d.v', 'position.x', 'left.desktop', 'left'), 0),
        y: num(pick(l, 'position.y.d.v', 'position.y', 'top.desktop', 'top'), 0),
      },
    });
  }
  return {
    title: String(pick(sp, 'title') ?? `Slide ${sl.slide_order}`),
    image: String(pick(sp, 'bg.image', 'image') ?? ''),
    thumb: String(pick(sp, 'thumb.customThumbSrc', 'slide_thumb') ?? ''),
    link: String(pick(sp, 'seo.link', 'link') ?? ''),
    layers,
  };
}

/** A Slider Revolution slider as sliderx's import document reads it. */
export function convertSlider(s: RevSlider, slides: RevSlide[], alias: string, report: KindReport): unknown {
  const p = json(s.params);
  const layout = String(pick(p, 'layouttype', 'slider_type', 'layout.type') ?? 'auto');
  const dropped = new Set<string>();
  const converted = slides.map((sl) => convertSlide(sl, dropped));
  if (dropped.size) report.note(`layer types sliderx does not have, left out: ${[...dropped].join(', ')}`);
  return {
    alias,
    title: String(s.title || alias),
    settings: {
      layout: ['auto', 'fullwidth', 'fullscreen'].includes(layout) ? layout : 'auto',
      width: Math.min(num(pick(p, 'size.width', 'width'), 1240), 10000),
      height: Math.min(num(pick(p, 'size.height', 'height'), 600), 10000),
      autoplay: !bool(pick(p, 'general.slideshow.stopSlider', 'stop_slider'), false),
      delay: Math.min(num(pick(p, 'def.delay', 'delay'), 9000), 600000),
      navigation: {
        arrows: bool(pick(p, 'nav.arrows.set', 'enable_arrows'), true),
        bullets: bool(pick(p, 'nav.bullets.set', 'enable_bullets'), true),
        thumbnails: bool(pick(p, 'nav.thumbs.set', 'enable_thumbnails'), false),
      },
    },
    slides: converted,
  };
}

export const slidersKind: ImportKind = {
  name: 'sliders',
  plugin: { name: 'Slider Revolution', tables: ['revslider_sliders', 'revslider_slides'] },
  async run(ctx, report) {
    const { wp, state } = ctx;
    const sliders = await wp.db.query<RevSlider & Record<string, unknown>>(
      `SELECT id, title, alias, params FROM ${wp.table('revslider_sliders')} ORDER BY id`,
    );
    report.available = sliders.length;
    const stage = ctx.progress.stage('sliders', sliders.length);
    const known = await state.mappings('sliders');
    let done = 0;
    for (const s of sliders) {
      stage.update(++done);
      const slides = await wp.db.query<RevSlide & Record<string, unknown>>(
        `SELECT id, slider_id, slide_order, params, layers FROM ${wp.table('revslider_slides')} WHERE slider_id = ? ORDER BY slide_order, id`,
        [s.id],
      );
      await importSlider(ctx, report, s, slides, known.get(String(s.id)));
    }
    stage.finish(
      `${report.imported} new, ${report.updated} updated, ${report.unchanged} unchanged, ${report.skippedTotal} skipped`,
    );
  },
};

async function importSlider(
  ctx: ImportContext,
  report: KindReport,
  s: RevSlider,
  slides: RevSlide[],
  previous: { targetId: string; checksum: string } | undefined,
): Promise<void> {
  const { app, state } = ctx;
  const wanted =
    String(s.alias || `slider-${s.id}`)
      .replace(/[^A-Za-z0-9_-]+/g, '-')
      .slice(0, 90) || `slider-${s.id}`;
  let alias = /^\d+$/.test(wanted) ? `slider-${wanted}` : wanted;
  if (previous) {
    const mine = await app.db
      .selectFrom('sliders')
      .select('alias')
      .where('id', '=', Number(previous.targetId))
      .executeTakeFirst();
    if (!mine) {
      report.skip('deleted on this site after an earlier import (not brought back)');
      return;
    }
    alias = mine.alias;
  } else {
    const holder = await app.db.selectFrom('sliders').select('id').where('alias', '=', alias).executeTakeFirst();
    if (holder) {
      if (ctx.onConflict === 'skip') {
        report.conflict(`slider ${s.id} "${s.title}": the alias "${alias}" is taken here — skipped`);
        report.skip('alias taken here (--on-conflict skip)');
        return;
      }
      if (ctx.onConflict === 'rename') {
        let n = 1;
        const base = alias;
        while (await app.db.selectFrom('sliders').select('id').where('alias', '=', alias).executeTakeFirst())
          alias = `${base}-wp${n++ > 1 ? n - 1 : ''}`;
        report.conflict(`slider ${s.id} "${s.title}": the alias "${base}" is taken here — imported as "${alias}"`);
      } else {
        report.conflict(
          `slider ${s.id} "${s.title}": the alias "${alias}" is taken here — slider ${holder.id} overwritten`,
        );
      }
    }
  }
  const doc = convertSlider(s, slides, alias, report);
  const { sliders, issues } = parseImport(doc);
  if (issues.length || !sliders.length) {
    report.skip('refused by sliderx');
    report.conflict(`slider ${s.id} "${s.title}": ${issues.slice(0, 3).join('; ')}`);
    return;
  }
  const slider: SliderData = sliders[0]!;
  const checksum = fingerprint(slider);
  if (!report.tally(previous, checksum) || ctx.dryRun) return;
  // sliderx's import replaces a slider of the same alias, slides included.
  const [result] = await importSliders(app, [slider], { user: null, ip: '', initiator: 'cms_cli' });
  await state.map(app.db, 'sliders', s.id, result!.id, checksum);
}
