// The `format` keyword: the reference's checks (hex-color, date-time, email, ip, uuid) and the
// sanitiser each format applies (rest_sanitize_value_from_schema's format switch).
import { SchemaFailure, failure } from './errors.ts';
import { isScalar, phpScalarString, phpTrim } from './php.ts';
import { sanitizeTextField } from './text-field.ts';
import { sanitizeUrl } from './url.ts';
import { ownValue } from '../../util.ts';

export function validateFormat(value: unknown, format: string, name: string): SchemaFailure | null {
  const text = isScalar(value) ? phpScalarString(value) : null;
  switch (format) {
    case 'hex-color':
      return text !== null && isHexColor(text) ? null : failure('rest_invalid_hex_color', 'Invalid hex color.');
    case 'date-time':
      return text !== null && isDateTime(text) ? null : failure('rest_invalid_date', 'Invalid date.');
    case 'email':
      return text !== null && isEmail(text) ? null : failure('rest_invalid_email', 'Invalid email address.');
    case 'ip':
      return text !== null && isIpAddress(text)
        ? null
        : failure('rest_invalid_ip', `${name} is not a valid IP address.`);
    case 'uuid':
      return typeof value === 'string' && isUuid(value)
        ? null
        : failure('rest_invalid_uuid', `${name} is not a valid UUID.`);
    default:
      return null; // uri, text-field, textarea-field and unknown formats are not validated
  }
}

/** Whether text has the format (formats without a check pass), for checks outside the engine. */
export function matchesFormat(format: string, text: string): boolean {
  const check = ownValue(FORMAT_CHECKS, format);
  return !check || check(text);
}

// PHP's `$` (no D modifier) also matches before a final newline; the format checks keep that.
const HEX_COLOR = /^#(?:[A-Fa-f0-9]{3}){1,2}\n?$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\n?$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\.){3}(?:25[0-5]|2[0-4][0-9]|[01]?[0-9][0-9]?)\n?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:Z|[+-](\d{2})(?::(\d{2}))?)?\n?$/;

export function isHexColor(text: string): boolean {
  return HEX_COLOR.test(text);
}

export function isUuid(text: string): boolean {
  return UUID.test(text);
}

/** rest_parse_date: the ISO-8601 shape, then what PHP's strtotime accepts in each field. */
export function isDateTime(text: string): boolean {
  const m = DATE_TIME.exec(text);
  if (!m) return false;
  const [month, day, hour, minute, second] = [m[2], m[3], m[4], m[5], m[6]].map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day > 31 || hour > 24 || minute > 59 || second > 60) return false;
  if (m[7] !== undefined && (Number(m[7]) > 24 || (m[8] !== undefined && Number(m[8]) > 59))) return false;
  return true;
}

/**
 * WordPress is_email() (the basic, non-RFC check), as the REST core's `email` format uses it:
 * the site's one e-mail rule (users, logins by e-mail, sched's fields and tickets). Lengths are
 * the callers' bounds.
 */
export function isEmail(email: string): boolean {
  if (Buffer.byteLength(email, 'utf8') < 6) return false;
  const at = email.indexOf('@', 1);
  if (at === -1) return false;
  const local = email.slice(0, at);
  const domain = email.slice(at + 1);
  if (!/^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~.-]+\n?$/.test(local)) return false;
  if (/\.{2,}/.test(domain)) return false;
  if (phpTrim(domain, ' \t\n\r\0\x0B.') !== domain) return false;
  const subs = domain.split('.');
  if (subs.length < 2) return false;
  return subs.every((sub) => phpTrim(sub, ' \t\n\r\0\x0B-') === sub && /^[a-z0-9-]+$/i.test(sub));
}

/** rest_is_ip_address: dotted IPv4, or IPv6 as the Requests library checks it. */
export function isIpAddress(ip: string): boolean {
  return IPV4.test(ip) || isIpv6(ip);
}

const FORMAT_CHECKS: Record<string, (text: string) => boolean> = {
  'hex-color': isHexColor,
  'date-time': isDateTime,
  email: isEmail,
  ip: isIpAddress,
  uuid: isUuid,
};

function isIpv6(input: string): boolean {
  const ip = uncompressIpv6(input);
  if (ip === null) return false;
  let v6 = ip;
  let v4 = '';
  if (ip.includes('.')) {
    const colon = ip.lastIndexOf(':');
    v6 = colon === -1 ? '' : ip.slice(0, colon);
    v4 = ip.slice(colon + 1);
  }
  const groups = v6.split(':');
  const octets = v4.split('.');
  if (!((groups.length === 8 && octets.length === 1) || (groups.length === 6 && octets.length === 4))) return false;
  for (const group of groups) {
    if (!/^[0-9a-fA-F]{1,4}$/.test(group)) return false;
  }
  if (octets.length === 4) {
    for (const octet of octets) {
      if (!/^(?:0|[1-9][0-9]{0,2})$/.test(octet) || Number(octet) > 255) return false;
    }
  }
  return true;
}

/** Expands the one `::` of an IPv6 address; null where the Requests library would fail. */
function uncompressIpv6(ip: string): string | null {
  const halves = ip.split('::');
  if (halves.length !== 2) return ip;
  const [left, right] = halves as [string, string];
  const leftColons = left === '' ? -1 : left.split(':').length - 1;
  const rightColons = right === '' ? -1 : right.split(':').length - 1 + (right.includes('.') ? 1 : 0);
  if (leftColons === -1 && rightColons === -1) return '0:0:0:0:0:0:0:0';
  let fill: string;
  if (leftColons === -1) fill = '0:'.repeat(Math.max(0, 7 - rightColons));
  else if (rightColons === -1) fill = ':0'.repeat(Math.max(0, 7 - leftColons));
  else {
    const zeros = 6 - rightColons - leftColons;
    if (zeros < 0) return null; // str_repeat() with a negative count fails in PHP
    fill = ':' + '0:'.repeat(zeros);
  }
  return ip.replace('::', fill);
}

/** undefined = the format has no sanitiser (then the plain type cast applies). */
export function sanitizeFormat(value: unknown, format: string): string | undefined {
  switch (format) {
    case 'hex-color':
      return sanitizeHexColor(value);
    case 'uri':
      return sanitizeUrl(value);
    case 'textarea-field':
      return sanitizeTextField(value, true);
    case 'date-time':
    case 'email': // no validation-style stripping, unlike sanitize_email()
    case 'ip':
    case 'uuid':
    case 'text-field':
      return sanitizeTextField(value);
    default:
      return undefined;
  }
}

export function sanitizeHexColor(value: unknown): string {
  if (value === '') return '';
  return typeof value === 'string' && isHexColor(value) ? value : '';
}
