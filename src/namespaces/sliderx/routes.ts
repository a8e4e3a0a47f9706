// sliderx: public reads of sliders. Literal routes (slides/, stream/, modal/) come before
// /sliders/<slider>, which would capture them. Success and error bodies have the reference's
// `{success, message, …}` shape; statuses are honest; reads carry ETag and Cache-Control and
// answer 304 to a matching If-None-Match.
import { endpoint, namespace, PUBLIC, route } from '../../rest/define.ts';
import type { NamespaceDef, RestRequest } from '../../rest/types.ts';
import { RestError, RestResponse } from '../../rest/types.ts';
import { etagOf, getModal, getSlider, getSliderOfSlide, getSliders, getStream, matchesIfNoneMatch, type SliderQuery } from './service.ts';

export const CACHE_CONTROL = 'public, max-age=300';

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined;
}

function queryOf(req: RestRequest): SliderQuery {
  const raw = req.rawParams;
  const q: SliderQuery = {};
  const alias = str(raw.alias);
  const id = str(raw.id);
  const slideid = str(raw.slideid);
  if (alias !== undefined) q.alias = alias;
  if (id !== undefined) q.id = id;
  if (slideid !== undefined) q.slideid = slideid;
  q.aliasFlag = alias !== undefined && ['true', '1'].includes(alias.toLowerCase());
  return q;
}

/** Runs a read: 200 with ETag/Cache-Control, 304 when If-None-Match matches, errors as `{success:false,…}`. */
export async function cachedRead(req: RestRequest, read: () => Promise<Record<string, unknown>>): Promise<RestResponse> {
  let body: Record<string, unknown>;
  try {
    body = await read();
  } catch (err) {
    if (err instanceof RestError) {
      return new RestResponse({ success: false, message: err.message, code: err.code, data: { status: err.status } }, err.status);
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
      permission: PUBLIC,
      handler: (req) => {
        const q = queryOf(req);
        // On /sliders `alias` is the alias itself, not the flag.
        return cachedRead(req, () => getSliders(req.app, q, req.lang));
      },
    }),
  ]),
  route('/sliders/slides/(?P<slide_id>\\d+)', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getSliderOfSlide(req.app, String(req.urlParams.slide_id ?? req.params.slide_id), queryOf(req), req.lang)),
    }),
  ]),
  route('/sliders/stream/(?P<slide_ids>[\\d,]+)', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getStream(req.app, String(req.urlParams.slide_ids ?? req.params.slide_ids), req.lang)),
    }),
  ]),
  route('/sliders/modal/(?P<slider>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getModal(req.app, String(req.urlParams.slider ?? req.params.slider), queryOf(req), req.lang)),
    }),
  ]),
  route('/sliders/(?P<slider>[a-zA-Z0-9_-]+)', [
    endpoint('GET', {
      permission: PUBLIC,
      handler: (req) => cachedRead(req, () => getSlider(req.app, String(req.urlParams.slider ?? req.params.slider), queryOf(req), req.lang)),
    }),
  ]),
]);
