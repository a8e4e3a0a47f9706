// Storage of sliders and slides: reads, the import's write (validated, one transaction) and export.
import type { AppServices } from '../../site/services.ts';
import { utcNow } from '../../site/time.ts';
import { MAX_DB_INT } from '../../db/limits.ts';
import {
  type Layer,
  type SlideData,
  type SliderData,
  type SliderSettings,
  type SlideParams,
  type Text,
} from './model.ts';

export interface StoredSlide {
  id: number;
  sliderId: number;
  order: number;
  title: Text;
  image: string;
  thumb: string;
  link: string;
  params: SlideParams;
  layers: Layer[];
}

export interface StoredSlider {
  id: number;
  alias: string;
  title: Text;
  settings: SliderSettings;
  createdAt: string;
  modifiedAt: string;
}

type SliderRow = {
  id: number;
  alias: string;
  title: string;
  settings: string;
  created_at: string;
  modified_at: string;
};
type SlideRow = {
  id: number;
  slider_id: number;
  position: number;
  title: string;
  image: string;
  thumb: string;
  link: string;
  params: string;
  layers: string;
};

function sliderFrom(r: SliderRow): StoredSlider {
  return {
    id: r.id,
    alias: r.alias,
    title: JSON.parse(r.title) as Text,
    settings: JSON.parse(r.settings) as SliderSettings,
    createdAt: r.created_at,
    modifiedAt: r.modified_at,
  };
}

function slideFrom(r: SlideRow): StoredSlide {
  return {
    id: r.id,
    sliderId: r.slider_id,
    order: r.position,
    title: JSON.parse(r.title) as Text,
    image: r.image,
    thumb: r.thumb,
    link: r.link,
    params: JSON.parse(r.params) as SlideParams,
    layers: JSON.parse(r.layers) as Layer[],
  };
}

/** Ids beyond the integer column range cannot exist (and must not reach PostgreSQL). */
export function isStorableId(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= MAX_DB_INT;
}

export async function getSliderById(app: AppServices, id: number): Promise<StoredSlider | null> {
  if (!isStorableId(id)) return null;
  const r = await app.db.selectFrom('sliders').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? sliderFrom(r as SliderRow) : null;
}

export async function getSliderByAlias(app: AppServices, alias: string): Promise<StoredSlider | null> {
  const r = await app.db.selectFrom('sliders').selectAll().where('alias', '=', alias).executeTakeFirst();
  return r ? sliderFrom(r as SliderRow) : null;
}

export async function listSliders(app: AppServices): Promise<(StoredSlider & { slideCount: number })[]> {
  const rows = (await app.db.selectFrom('sliders').selectAll().orderBy('id').execute()) as SliderRow[];
  const counts = await app.db
    .selectFrom('slider_slides')
    .select(['slider_id', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('slider_id')
    .execute();
  const byId = new Map(counts.map((c) => [c.slider_id, Number(c.n)]));
  return rows.map((r) => ({ ...sliderFrom(r), slideCount: byId.get(r.id) ?? 0 }));
}

export async function getSlides(app: AppServices, sliderId: number): Promise<StoredSlide[]> {
  const rows = (await app.db
    .selectFrom('slider_slides')
    .selectAll()
    .where('slider_id', '=', sliderId)
    .orderBy('position')
    .orderBy('id')
    .execute()) as SlideRow[];
  return rows.map(slideFrom);
}

export async function getSlide(app: AppServices, id: number): Promise<StoredSlide | null> {
  if (!isStorableId(id)) return null;
  const r = await app.db.selectFrom('slider_slides').selectAll().where('id', '=', id).executeTakeFirst();
  return r ? slideFrom(r as SlideRow) : null;
}

export async function getSlidesByIds(app: AppServices, ids: number[]): Promise<Map<number, StoredSlide>> {
  const valid = ids.filter(isStorableId);
  if (!valid.length) return new Map();
  const rows = (await app.db.selectFrom('slider_slides').selectAll().where('id', 'in', valid).execute()) as SlideRow[];
  return new Map(rows.map((r) => [r.id, slideFrom(r)]));
}

export interface ImportResult {
  alias: string;
  id: number;
  action: 'created' | 'updated';
  slides: number;
}

/**
 * Writes validated sliders (see model.parseImport) in one transaction: a slider is matched by
 * alias and replaced (title, settings, slides); a slide keeps its id when the file gives the
 * id of a slide of the same slider, otherwise it gets a new id; slides missing from the file
 * are deleted. The service's importSliders records them in the activity log.
 */
export async function writeSliders(app: Pick<AppServices, 'db'>, sliders: SliderData[]): Promise<ImportResult[]> {
  const now = utcNow();
  const results = await app.db.transaction().execute(async (tx) => {
    const out: ImportResult[] = [];
    for (const s of sliders) {
      const existing = await tx.selectFrom('sliders').select('id').where('alias', '=', s.alias).executeTakeFirst();
      let sliderId: number;
      if (existing) {
        sliderId = existing.id;
        await tx
          .updateTable('sliders')
          .set({ title: JSON.stringify(s.title), settings: JSON.stringify(s.settings), modified_at: now })
          .where('id', '=', sliderId)
          .execute();
      } else {
        const ins = await tx
          .insertInto('sliders')
          .values({
            alias: s.alias,
            title: JSON.stringify(s.title),
            settings: JSON.stringify(s.settings),
            created_at: now,
            modified_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow();
        sliderId = ins.id;
      }
      const current = new Set(
        (await tx.selectFrom('slider_slides').select('id').where('slider_id', '=', sliderId).execute()).map(
          (r) => r.id,
        ),
      );
      const kept = new Set<number>();
      for (const [position, slide] of s.slides.entries()) {
        const values = slideValues(slide, sliderId, position);
        if (slide.id !== undefined && current.has(slide.id) && !kept.has(slide.id)) {
          kept.add(slide.id);
          await tx.updateTable('slider_slides').set(values).where('id', '=', slide.id).execute();
        } else {
          await tx.insertInto('slider_slides').values(values).execute();
        }
      }
      const stale = [...current].filter((id) => !kept.has(id));
      if (stale.length) await tx.deleteFrom('slider_slides').where('id', 'in', stale).execute();
      out.push({ alias: s.alias, id: sliderId, action: existing ? 'updated' : 'created', slides: s.slides.length });
    }
    return out;
  });
  return results;
}

function slideValues(slide: SlideData, sliderId: number, position: number) {
  return {
    slider_id: sliderId,
    position,
    title: JSON.stringify(slide.title),
    image: slide.image,
    thumb: slide.thumb,
    link: slide.link,
    params: JSON.stringify(slide.params),
    layers: JSON.stringify(slide.layers),
  };
}

/** The export document: every slider (or the given ones) with all languages, as import reads it. */
export async function exportSliders(
  app: AppServices,
  only?: StoredSlider[],
): Promise<{ version: 1; sliders: SliderData[] }> {
  const sliders = only ?? (await listSliders(app));
  const out: SliderData[] = [];
  for (const s of sliders) {
    const slides = await getSlides(app, s.id);
    out.push({
      id: s.id,
      alias: s.alias,
      title: s.title,
      settings: s.settings,
      slides: slides.map((sl) => ({
        id: sl.id,
        title: sl.title,
        image: sl.image,
        thumb: sl.thumb,
        link: sl.link,
        params: sl.params,
        layers: sl.layers,
      })),
    });
  }
  return { version: 1, sliders: out };
}
