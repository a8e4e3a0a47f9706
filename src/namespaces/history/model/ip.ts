// Client addresses as the activity log stores them: anonymised like the reference
// (IPv4 last octet → `x`, IPv6 truncated to its first 48 bits).
import ipaddr from 'ipaddr.js';

export function anonymizeIp(ip: string): string {
  const raw = ip.trim();
  if (!raw || !ipaddr.isValid(raw)) return '';
  const addr = ipaddr.process(raw); // IPv4-mapped IPv6 becomes IPv4
  if (addr.kind() === 'ipv4') {
    const [a, b, c] = addr.toByteArray();
    return `${a}.${b}.${c}.x`;
  }
  const bytes = addr.toByteArray().map((byte, i) => (i < 6 ? byte : 0));
  return ipaddr.fromByteArray(bytes).toString().toLowerCase();
}

/** Headers the reference scans for extra client addresses (lower-cased, as stored). */
const PROXY_HEADERS = [
  'client-ip',
  'x-forwarded-for',
  'x-forwarded',
  'x-cluster-client-ip',
  'forwarded-for',
  'forwarded',
];

/** Context entries `_server_http_<header>_<n>` for valid public IPv4 addresses in proxy headers. */
export function proxyAddressContext(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of PROXY_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    const list = (Array.isArray(value) ? value.join(',') : value).split(',').map((s) => s.trim());
    list.forEach((candidate, position) => {
      if (!ipaddr.IPv4.isValidFourPartDecimal(candidate)) return;
      if (ipaddr.IPv4.parse(candidate).range() !== 'unicast') return;
      out[`_server_http_${name.replace(/-/g, '_')}_${position}`] = anonymizeIp(candidate);
    });
  }
  return out;
}

/** `ip_address` filter: IPv4 with optional `x` octets, or IPv6 characters. */
export function isIpFilterPattern(value: string): boolean {
  return /^\d{1,3}\.\d{1,3}\.(\d{1,3}|x)\.(\d{1,3}|x)$/i.test(value) || /^[0-9a-fA-F:]+$/.test(value);
}

/**
 * What an `ip_address` filter stands for: an exact address, or a LIKE pattern (each `.x` a `%`)
 * with the range of addresses starting with its literal prefix (`10.0.` ≤ a < `10.0/`), which
 * lets an index find the candidates (read/plan.ts isNarrowIpRange).
 */
export type IpFilter = { like: false; pattern: string } | { like: true; pattern: string; from: string; below: string };

export function ipFilterCondition(value: string): IpFilter {
  const lower = value.toLowerCase();
  if (!/\.x(?=\.|$)/.test(lower)) return { like: false, pattern: lower };
  const pattern = lower.replace(/\.x(?=\.|$)/g, '.%');
  // The prefix ends with the dot before the first wildcard; '/' is the character after '.'.
  const from = pattern.slice(0, pattern.indexOf('%'));
  return { like: true, pattern, from, below: from.slice(0, -1) + '/' };
}
