// sliderx: public reads of sliders. Literal routes (slides/, stream/, modal/) come before
// /sliders/<slider>, which would capture them. Success and error bodies have the reference's
// `{success, message, …}` shape; statuses are honest; reads carry ETag and Cache-Control and
// answer 304 to a matching If-None-Match.
import { endpoint, l, namespace, PUBLIC, route } from '../../rest/define.ts';
import type { NamespaceDef, ParamsOf, RestRequest } from '../../rest/types.ts';
import { RestError, RestResponse } from '../../rest/types.ts';
import {
  etagOf,
  getModal,
  getSlider,
  getSliderOfSlide,
  getSliders,
  getStream,
  matchesIfNoneMatch,
  type SliderQuery,
} from './service.ts';

export const CACHE_CONTROL = 'public, max-age=300';

/** A query value the original reads as text: a string, or a number as its digits. */
function text(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

/**
 * The query parameters the original reads without declaring them (so the index lists none):
 * `alias` and `id` choose a slider, `slideid` one slide of it.
 */
const SLIDER_QUERY_ARGS = {
  alias: {
    description: l(
      'The slider alias, or on /sliders/<slider> "true" when the path value is an alias.',
      'Der Slider-Alias, oder auf /sliders/<slider> "true", wenn der Pfadwert ein Alias ist.',
    ),
    internal: true,
    sanitize: text,
  },
  id: { description: l('The slider id.', 'Die Slider-ID.'), internal: true, sanitize: text },
  slideid: {
    description: l('Only this slide of the slider.', 'Nur diese Folie des Sliders.'),
    internal: true,
    sanitize: text,
  },
} as const;

function queryOf({ alias, id, slideid }: ParamsOf<typeof SLIDER_QUERY_ARGS>): SliderQuery {
  const q: SliderQuery = { aliasFlag: alias !== undefined && ['true', '1'].includes(alias.toLowerCase()) };
  if (alias !== undefined) q.alias = alias;
  if (id !== undefined) q.id = id;
  if (slideid !== undefined) q.slideid = slideid;
  return q;
}

/** Runs a read: 200 with ETag/Cache-Control, 304 when If-None-Match matches, errors as `{success:false,…}`. */
export async function cachedRead(
  req: RestRequest,
  read: () => Promise<Record<string, unknown>>,
): Promise<RestResponse> {
  let body: Record<string, unknown>;
  try {
    body = await read();
  } catch (err) {
    if (err instanceof RestError) {
      return new RestResponse(
        { success: false, message: err.message, code: err.code, data: { status: err.status } },
        err.status,
      );
    }
    throw err;
  }
  const etag = etagOf({ lang: req.lang, body });
  const headers = { ETag: etag, 'Cache-Control': CACHE_CONTROL };
  if (matchesIfNoneMatch(req.headers['if-none-match'], etag)) return new RestResponse(null, 304, headers);
  return new RestResponse(body, 200, headers);
}

export const sliderxNamespace: NamespaceDef = namespace('sliderx', [
  route('/sliders', [
    endpoint('GET', {
      args: SLIDER_QUERY_ARGS,
      permission: PUBLIC,
      handler: (req) => {
        const q = queryOf(req.params);
        // On /sliders `alias` is the alias itself, not the flag.
        return cachedRead(req, () => getSliders(req.app, q, req.lang));
      },
    }),
  ]),
  route('/sliders/slides/(?P<slide_id>\\d+)', [
    endpoint('GET', {
      args: SLIDER_QUERY_ARGS,
      permission: PUBLIC,
      handler: (req) =>
        cachedRead(req, () => getSliderOfSlide(req.app, req.urlParams.slide_id!, queryOf(req.params), req.lang)),
    }),
  ]),
  route('/sliders/stream/(?P<slide_ids>[\\d,]+)', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getStream(req.app, req.urlParams.slide_ids!, req.lang)),
    }),
  ]),
  route('/sliders/modal/(?P<slider>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      args: SLIDER_QUERY_ARGS,
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getModal(req.app, req.urlParams.slider!, queryOf(req.params), req.lang)),
    }),
  ]),
  route('/sliders/(?P<slider>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      args: SLIDER_QUERY_ARGS,
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getSlider(req.app, req.urlParams.slider!, queryOf(req.params), req.lang)),
    }),
  ]),
]);
