// The outbound HTTP client of the oEmbed proxy. Every request target is checked before a
// connection is made: http(s) only, no credentials, standard ports, and every address the
// host resolves to must be public unicast (no private, loopback, link-local, CGNAT, ULA,
// IPv4-mapped/-compatible or other special ranges). The connection then goes to the checked
// address (the resolved list is handed to the socket, so there is no second DNS lookup and
// no rebinding window). Redirects are followed by hand and each hop is checked again.
// Timeouts and a response size limit apply. `allowPrivate` (test-only) lifts the address
// and port checks.
import http from 'node:http';
import https from 'node:https';
import dns from 'node:dns';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import { errorCode } from '../../util.ts';

/**
 * `forbidden`: refused for what the URL says (scheme, credentials, port, an address or a
 * localhost name in it); `private`: refused for what its host resolved to.
 */
export type FetchFailure = 'forbidden' | 'private' | 'timeout' | 'network' | 'too_large' | 'too_many_redirects';

export class FetchError extends Error {
  kind: FetchFailure;
  url: string;
  constructor(kind: FetchFailure, message: string, url: string) {
    super(message);
    this.kind = kind;
    this.url = url;
  }
}

export interface FetchLimits {
  /** Whole request including redirects, in milliseconds. */
  timeoutMs: number;
  /** Largest response body accepted, in bytes. */
  maxBytes: number;
  /** true: keep the first maxBytes and stop reading (discovery); false: fail (provider data). */
  truncate: boolean;
  maxRedirects: number;
  allowPrivate: boolean;
  userAgent: string;
  /** Host name resolution; defaults to the system resolver (tests may inject one). */
  resolve?: (hostname: string) => Promise<{ address: string; family: number }[]>;
  /**
   * Test-only: host names treated as public (their addresses and port are not checked), so
   * tests can stand a local server in for a public host while every other target of the
   * same request (redirects, discovered endpoints) is checked as in production.
   */
  trustHost?: (hostname: string) => boolean;
}

export interface FetchResult {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  /** The address finally answered, after redirects. */
  url: string;
  truncated: boolean;
}

const ALLOWED_PORTS = new Set(['', '80', '443', '8080']);

/** Whether an IP address is a public unicast address we may connect to. */
export function isPublicAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return false;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    if (v6.isIPv4MappedAddress()) return isPublicAddress(v6.toIPv4Address().toString());
    const parts = v6.parts;
    // ::/8 (IPv4-compatible and other reserved forms), and anything not plain unicast.
    if (parts[0]! < 0x0100) return false;
    return v6.range() === 'unicast';
  }
  return parsed.range() === 'unicast';
}

/** Checks the parts of a URL that do not need DNS; returns the reason when refused. */
export function checkUrlShape(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'only http and https URLs can be fetched';
  if (url.username || url.password) return 'URLs with credentials are not fetched';
  if (!url.hostname) return 'the URL has no host';
  if (!allowPrivate && !ALLOWED_PORTS.has(url.port)) return `port ${url.port} is not allowed`;
  // RFC 6761: localhost and its subdomains are this machine, whatever a resolver says.
  if (!allowPrivate && /^(?:.+\.)?localhost\.?$/i.test(url.hostname)) return `${url.hostname} is this machine`;
  return null;
}

function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

async function systemResolve(hostname: string): Promise<{ address: string; family: number }[]> {
  return dns.promises.lookup(hostname, { all: true, verbatim: true });
}

/** Resolves the host of a URL and checks every address; returns the addresses to connect to. */
export async function resolveChecked(
  url: URL,
  limits: FetchLimits,
  deadline = Date.now() + limits.timeoutMs,
): Promise<{ address: string; family: number }[]> {
  const href = url.toString();
  const host = hostOf(url);
  const lenient = limits.allowPrivate || (limits.trustHost?.(host) ?? false);
  const shape = checkUrlShape(url, lenient);
  if (shape) throw new FetchError('forbidden', shape, href);
  if (net.isIP(host)) {
    if (!lenient && !isPublicAddress(host)) throw new FetchError('forbidden', `address ${host} is not public`, href);
    return [{ address: host, family: net.isIP(host) }];
  }
  let addresses: { address: string; family: number }[];
  try {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new FetchError('timeout', `resolving ${host} timed out`, href)),
        Math.max(deadline - Date.now(), 0),
      );
    });
    try {
      addresses = await Promise.race([(limits.resolve ?? systemResolve)(host), timeout]);
    } finally {
      clearTimeout(timer);
    }
  } catch (err) {
    if (err instanceof FetchError) throw err;
    throw new FetchError('network', `cannot resolve ${host}: ${errorCode(err)}`, href);
  }
  if (!addresses.length) throw new FetchError('network', `cannot resolve ${host}`, href);
  if (!lenient) {
    const bad = addresses.find((a) => !isPublicAddress(a.address));
    if (bad) throw new FetchError('private', `${host} resolves to ${bad.address}, which is not public`, href);
  }
  return addresses;
}

function requestOnce(
  url: URL,
  addresses: { address: string; family: number }[],
  limits: FetchLimits,
  deadline: number,
): Promise<FetchResult> {
  const href = url.toString();
  const allowed = new Set(addresses.map((a) => a.address));
  return new Promise<FetchResult>((resolve, reject) => {
    const remaining = deadline - Date.now();
    if (remaining <= 0) {
      reject(new FetchError('timeout', 'the request timed out', href));
      return;
    }
    let settled = false;
    const finish = (err: Error | null, result?: FetchResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(result!);
    };
    // The socket connects to the addresses checked above: no second lookup.
    const lookup = (_hostname: string, options: { all?: boolean }, cb: (...args: any[]) => void) => {
      if (options && options.all) cb(null, addresses);
      else cb(null, addresses[0]!.address, addresses[0]!.family);
    };
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(
      {
        protocol: url.protocol,
        hostname: hostOf(url),
        port: url.port || (url.protocol === 'https:' ? 443 : 80),
        path: `${url.pathname}${url.search}`,
        method: 'GET',
        agent: false,
        lookup: lookup as unknown as typeof dns.lookup,
        headers: {
          'User-Agent': limits.userAgent,
          Accept: 'application/json, text/xml;q=0.9, text/html;q=0.8, */*;q=0.5',
          'Accept-Encoding': 'identity',
          Host: url.host,
        },
      },
      (res) => {
        const status = res.statusCode ?? 0;
        const declared = Number(res.headers['content-length']);
        const isRedirect = status >= 300 && status < 400;
        if (!isRedirect && !limits.truncate && Number.isFinite(declared) && declared > limits.maxBytes) {
          finish(new FetchError('too_large', `the response is larger than ${limits.maxBytes} bytes`, href));
          res.destroy();
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        let truncated = false;
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          if (size + chunk.length > limits.maxBytes) {
            if (!limits.truncate) {
              finish(new FetchError('too_large', `the response is larger than ${limits.maxBytes} bytes`, href));
              res.destroy();
              return;
            }
            chunks.push(chunk.subarray(0, limits.maxBytes - size));
            size = limits.maxBytes;
            truncated = true;
            finish(null, { status, headers: res.headers, body: Buffer.concat(chunks), url: href, truncated });
            res.destroy();
            return;
          }
          chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () =>
          finish(null, { status, headers: res.headers, body: Buffer.concat(chunks), url: href, truncated }),
        );
        res.on('error', (err) => finish(new FetchError('network', err.message, href)));
        res.on('aborted', () => finish(new FetchError('network', 'the connection was closed early', href)));
      },
    );
    const timer = setTimeout(() => {
      finish(new FetchError('timeout', 'the request timed out', href));
      req.destroy();
    }, remaining);
    req.on('socket', (socket) => {
      socket.on('connect', () => {
        // Defence in depth: the peer must be one of the checked addresses.
        const peer = socket.remoteAddress ?? '';
        if (!allowed.has(peer) && !allowed.has(peer.replace(/^::ffff:/, ''))) {
          finish(new FetchError('private', `connected to unexpected address ${peer}`, href));
          req.destroy();
        }
      });
    });
    req.on('error', (err) =>
      finish(new FetchError('network', (err as NodeJS.ErrnoException).code ?? err.message, href)),
    );
    req.end();
  });
}

/** GET with the checks above; follows up to maxRedirects redirects, checking each target. */
export async function safeFetch(input: string, limits: FetchLimits): Promise<FetchResult> {
  const deadline = Date.now() + limits.timeoutMs;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchError('forbidden', 'not a valid URL', input);
  }
  for (let hop = 0; ; hop++) {
    const addresses = await resolveChecked(url, limits, deadline);
    const res = await requestOnce(url, addresses, limits, deadline);
    const location = res.headers.location;
    if ([301, 302, 303, 307, 308].includes(res.status) && typeof location === 'string' && location !== '') {
      if (hop >= limits.maxRedirects)
        throw new FetchError('too_many_redirects', `more than ${limits.maxRedirects} redirects`, url.toString());
      try {
        url = new URL(location, url);
      } catch {
        throw new FetchError('network', 'invalid redirect location', url.toString());
      }
      continue;
    }
    return res;
  }
}
