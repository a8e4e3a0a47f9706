// oembed/1.0/proxy (rest-core §9.2): oEmbed data for any URL, from the built-in provider
// allowlist or by discovery, fetched through the checked HTTP client (net.ts) and cached in
// the database for a day. URLs of this site are answered locally without any request.
//
// Error statuses (our decisions, the reference answers most failures with 404):
//   404 oembed_invalid_url   no provider, nothing discovered, page or provider says 404/410
//   400 oembed_forbidden_url the URL (or a redirect / discovered endpoint) is not http(s),
//                            carries credentials, uses another port than 80/443/8080, names a
//                            private, loopback, link-local… address or a localhost name
//   502 oembed_fetch_failed  as well when its host resolves to such an address: the answer is
//                            that of a host that does not resolve, so that callers cannot map
//                            the internal network's names (the log tells which it was)
//   502 oembed_provider_error / oembed_invalid_response / oembed_response_too_large
//   504 oembed_timeout
// `data.reason` is generic; addresses, resolver errors and the refused detail go to the log.
import crypto from 'node:crypto';
import { XMLParser } from 'fast-xml-parser';
import type { AppServices } from '../../site/services.ts';
import type { Lang } from '../../rest/types.ts';
import { RestError } from '../../rest/types.ts';
import { escapeAttr, escapeHtml, safeUrl } from '../../site/html.ts';
import { isLocalUrl } from '../../pages/api.ts';
import { formatUtc, utcNow } from '../../site/time.ts';
import { ownValue } from '../../util.ts';
import { getLocalOembed, invalidUrlError } from './embed.ts';
import { FetchError, safeFetch, type FetchFailure, type FetchLimits, type FetchResult } from './net.ts';
import { findProvider } from './providers.ts';
import { discoverLinks, sanitizeDiscoveredHtml } from './sanitize.ts';

export interface ProxyParams {
  url: string;
  format?: string;
  maxwidth?: number;
  maxheight?: number;
  discover?: boolean;
}

export interface ProxyLimits {
  timeoutMs: number;
  maxBytes: number;
  maxRedirects: number;
  /** Seconds a provider answer stays cached. */
  ttlSeconds: number;
  resolve?: FetchLimits['resolve'];
  trustHost?: FetchLimits['trustHost'];
}

export const DEFAULT_PROXY_LIMITS: ProxyLimits = {
  timeoutMs: 10_000,
  maxBytes: 150 * 1024,
  maxRedirects: 5,
  ttlSeconds: 86_400,
};

/** Height asked from providers when maxheight is not given: min(ceil(500 × 1.5), 1000). */
export const DEFAULT_MAXHEIGHT = 750;

const MSG = {
  forbidden: {
    en: 'The URL points to an address that may not be fetched.',
    de: 'Die URL verweist auf eine Adresse, die nicht abgerufen werden darf.',
  },
  timeout: {
    en: 'The oEmbed provider did not answer in time.',
    de: 'Der oEmbed-Anbieter hat nicht rechtzeitig geantwortet.',
  },
  fetch: { en: 'The oEmbed data could not be fetched.', de: 'Die oEmbed-Daten konnten nicht abgerufen werden.' },
  provider: {
    en: 'The oEmbed provider answered with an error.',
    de: 'Der oEmbed-Anbieter hat mit einem Fehler geantwortet.',
  },
  invalid: {
    en: 'The oEmbed provider sent an invalid response.',
    de: 'Der oEmbed-Anbieter hat eine ungültige Antwort gesendet.',
  },
  tooLarge: { en: 'The oEmbed provider response is too large.', de: 'Die Antwort des oEmbed-Anbieters ist zu groß.' },
};

/** What the caller is told of a failed fetch: never an address or a resolver's answer. */
const REASON: Record<FetchFailure, string> = {
  forbidden: 'only http(s) URLs of public hosts on port 80, 443 or 8080, without credentials, are fetched',
  private: 'the URL could not be fetched',
  network: 'the URL could not be fetched',
  timeout: 'no answer in time',
  too_large: 'the response is too large',
  too_many_redirects: 'too many redirects',
};

function fetchError(app: AppServices, err: unknown, lang: Lang): RestError {
  if (!(err instanceof FetchError)) throw err;
  const refused = err.kind === 'forbidden' || err.kind === 'private';
  app.log[refused ? 'warn' : 'info'](
    { url: err.url, kind: err.kind, reason: err.message },
    refused ? 'oembed proxy: URL refused' : 'oembed proxy: fetch failed',
  );
  const data = { url: err.url, reason: REASON[err.kind] };
  switch (err.kind) {
    case 'forbidden':
      return new RestError('oembed_forbidden_url', MSG.forbidden[lang], 400, data);
    case 'timeout':
      return new RestError('oembed_timeout', MSG.timeout[lang], 504, data);
    case 'too_large':
      return new RestError('oembed_response_too_large', MSG.tooLarge[lang], 502, data);
    default:
      return new RestError('oembed_fetch_failed', MSG.fetch[lang], 502, data);
  }
}

export function proxyCacheKey(params: ProxyParams): string {
  const canonical = {
    url: params.url,
    format: params.format ?? 'json',
    maxwidth: params.maxwidth ?? 600,
    maxheight: params.maxheight ?? null,
    discover: params.discover ?? true,
  };
  return 'oembed_' + crypto.createHash('md5').update(JSON.stringify(canonical)).digest('hex');
}

async function readCache(app: AppServices, key: string): Promise<Record<string, unknown> | null> {
  const row = await app.db
    .selectFrom('oembed_cache')
    .select(['data', 'expires_at'])
    .where('cache_key', '=', key)
    .executeTakeFirst();
  if (!row || row.expires_at <= utcNow()) return null;
  try {
    return JSON.parse(row.data) as Record<string, unknown>;
  } catch {
    return null;
  }
}

async function writeCache(
  app: AppServices,
  key: string,
  data: Record<string, unknown>,
  ttlSeconds: number,
): Promise<void> {
  const now = utcNow();
  const expires = formatUtc(new Date(Date.now() + ttlSeconds * 1000));
  const json = JSON.stringify(data);
  await app.db.deleteFrom('oembed_cache').where('expires_at', '<=', now).execute();
  await app.db
    .insertInto('oembed_cache')
    .values({ cache_key: key, data: json, expires_at: expires })
    .onConflict((oc) => oc.column('cache_key').doUpdateSet({ data: json, expires_at: expires }))
    .execute();
}

const AUDIO: Record<string, string> = {
  mp3: 'audio/mpeg',
  m4a: 'audio/mpeg',
  ogg: 'audio/ogg',
  oga: 'audio/ogg',
  wav: 'audio/wav',
  flac: 'audio/flac',
};
const VIDEO: Record<string, string> = {
  mp4: 'video/mp4',
  m4v: 'video/mp4',
  webm: 'video/webm',
  ogv: 'video/ogg',
  mov: 'video/quicktime',
};

/** The classic embed handlers: direct audio and video file URLs (no request made). */
export function mediaEmbedHtml(url: string, width: number): string | null {
  const safe = safeUrl(url);
  if (!safe || safe.startsWith('/')) return null;
  const ext = new URL(safe).pathname.split('.').pop()?.toLowerCase() ?? '';
  const link = `<a href="${escapeAttr(safe)}">${escapeHtml(safe)}</a>`;
  // The extension is the caller's: a file named x.constructor is no audio file.
  const audio = ownValue(AUDIO, ext);
  if (audio) {
    return `<audio class="wp-audio-shortcode" preload="none" style="width: 100%;" controls="controls"><source type="${audio}" src="${escapeAttr(safe)}" />${link}</audio>`;
  }
  const video = ownValue(VIDEO, ext);
  if (video) {
    const w = Math.max(width, 1);
    const h = Math.ceil((w * 9) / 16);
    return `<video class="wp-video-shortcode" width="${w}" height="${h}" preload="metadata" controls="controls"><source type="${video}" src="${escapeAttr(safe)}" />${link}</video>`;
  }
  return null;
}

/** The reference's data2html: the HTML WordPress would render for provider data. */
export function dataToHtml(data: Record<string, unknown>, url: string, discovered: boolean): string | false {
  const type = data.type;
  if (type === 'photo') {
    const photo = typeof data.url === 'string' ? safeUrl(data.url) : '';
    const w = data.width,
      h = data.height;
    const numeric = (v: unknown) =>
      (typeof v === 'number' || (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)))) &&
      Number(v) > 0;
    if (!photo || !numeric(w) || !numeric(h)) return false;
    const title = typeof data.title === 'string' ? data.title : '';
    return `<a href="${escapeAttr(safeUrl(url))}"><img src="${escapeAttr(photo)}" alt="${escapeAttr(title)}" width="${escapeAttr(w)}" height="${escapeAttr(h)}" /></a>`;
  }
  if (type === 'video' || type === 'rich') {
    if (typeof data.html !== 'string' || data.html === '') return false;
    if (!discovered) return data.html;
    return sanitizeDiscoveredHtml(data.html) ?? false;
  }
  if (type === 'link') {
    if (typeof data.title !== 'string' || data.title === '') return false;
    return `<a href="${escapeAttr(safeUrl(url))}">${escapeHtml(data.title)}</a>`;
  }
  return false;
}

// htmlEntities: character references (&#65; &#x41;) are decoded as XML requires (and HTML's named
// entities, as lenient providers send them); declared entities never are (DOCTYPE is refused).
const xmlParser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  processEntities: true,
  htmlEntities: true,
  trimValues: true,
});

/** Provider data from a response body: a JSON object, or XML with an <oembed> root (no DOCTYPE). */
export function parseProviderBody(body: string, format: 'json' | 'xml'): Record<string, unknown> | null {
  if (format === 'json') {
    try {
      const data = JSON.parse(body) as unknown;
      return data !== null && typeof data === 'object' && !Array.isArray(data)
        ? (data as Record<string, unknown>)
        : null;
    } catch {
      return null;
    }
  }
  if (/<!DOCTYPE/i.test(body) || /<!ENTITY/i.test(body)) return null;
  try {
    const doc = xmlParser.parse(body) as Record<string, unknown>;
    const root = doc.oembed;
    return root !== null && typeof root === 'object' && !Array.isArray(root) ? (root as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function limitsFor(app: AppServices, limits: ProxyLimits, truncate: boolean): FetchLimits {
  return {
    timeoutMs: limits.timeoutMs,
    maxBytes: limits.maxBytes,
    truncate,
    maxRedirects: limits.maxRedirects,
    allowPrivate: app.config.allowPrivateOutbound,
    userAgent: `content-site/0.1.0; ${app.config.siteUrl}`,
    ...(limits.resolve ? { resolve: limits.resolve } : {}),
    ...(limits.trustHost ? { trustHost: limits.trustHost } : {}),
  };
}

async function fetchProviderData(
  app: AppServices,
  endpoint: string,
  params: { url: string; width: number; height: number },
  lang: Lang,
  limits: ProxyLimits,
): Promise<Record<string, unknown>> {
  const fetchLimits = limitsFor(app, limits, false);
  for (const format of ['json', 'xml'] as const) {
    let target: URL;
    try {
      target = new URL(endpoint);
    } catch {
      throw invalidUrlError(lang);
    }
    target.searchParams.set('maxwidth', String(params.width));
    target.searchParams.set('maxheight', String(params.height));
    target.searchParams.set('url', params.url);
    target.searchParams.set('dnt', '1');
    target.searchParams.set('format', format);
    let res: FetchResult;
    try {
      res = await safeFetch(target.toString(), fetchLimits);
    } catch (err) {
      throw fetchError(app, err, lang);
    }
    if (res.status === 501 && format === 'json') continue;
    if (res.status === 404 || res.status === 410) throw invalidUrlError(lang);
    if (res.status < 200 || res.status >= 300) {
      throw new RestError('oembed_provider_error', MSG.provider[lang], 502, {
        url: res.url,
        provider_status: res.status,
      });
    }
    const data = parseProviderBody(res.body.toString('utf8'), format);
    if (!data) throw new RestError('oembed_invalid_response', MSG.invalid[lang], 502, { url: res.url });
    return data;
  }
  throw new RestError('oembed_provider_error', MSG.provider[lang], 502, { provider_status: 501 });
}

/** GET oembed/1.0/proxy. */
export async function proxyOembed(
  app: AppServices,
  params: ProxyParams,
  lang: Lang,
  limits: ProxyLimits = DEFAULT_PROXY_LIMITS,
): Promise<Record<string, unknown>> {
  const url = String(params.url ?? '').trim();
  const width = params.maxwidth ?? 600;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidUrlError(lang);
  }
  // Local URLs: the local data, never cached, no request.
  if (isLocalUrl(app, url)) return getLocalOembed(app, url, width, lang);

  const key = proxyCacheKey({ ...params, url });
  const cached = await readCache(app, key);
  if (cached) return cached;

  let endpoint = findProvider(url, new URL(app.config.siteUrl).host);
  let discovered = false;
  if (!endpoint) {
    const media = mediaEmbedHtml(url, width);
    if (media) return { provider_name: 'Embed Handler', html: media, scripts: [] };
    if (params.discover === false) throw invalidUrlError(lang);
    let page: FetchResult;
    try {
      page = await safeFetch(parsed.toString(), limitsFor(app, limits, true));
    } catch (err) {
      throw fetchError(app, err, lang);
    }
    if (page.status < 200 || page.status >= 300) throw invalidUrlError(lang);
    const links = discoverLinks(page.body.toString('utf8'), page.url);
    endpoint = links.json ?? links.xml;
    if (!endpoint) throw invalidUrlError(lang);
    discovered = true;
  }
  const data = await fetchProviderData(
    app,
    endpoint,
    { url, width, height: params.maxheight ?? DEFAULT_MAXHEIGHT },
    lang,
    limits,
  );
  const result: Record<string, unknown> = { ...data, html: dataToHtml(data, url, discovered) };
  await writeCache(app, key, result, limits.ttlSeconds);
  return result;
}
