// HTML output helpers shared by the public pages, the oEmbed HTML and the slider modal markup.
// Everything that is not markup of our own goes through escapeHtml / escapeAttr.
import crypto from 'node:crypto';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** Escapes text for element content and (double- or single-quoted) attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}

export const escapeAttr = escapeHtml;

/**
 * A URL that may be put into href/src: absolute http(s) URLs and site-relative paths only
 * (no javascript:, data:, protocol-relative…). Returns '' when the URL is not acceptable.
 */
export function safeUrl(url: unknown): string {
  if (typeof url !== 'string') return '';
  const u = url.trim();
  if (u === '') return '';
  if (/[\u0000-\u001f\u007f]/.test(u)) return '';
  if (u.startsWith('/') && !u.startsWith('//') && !u.startsWith('/\\')) return u;
  try {
    const parsed = new URL(u);
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return '';
    return parsed.toString();
  } catch {
    return '';
  }
}

/** A random alphanumeric string (the oEmbed secret). */
export function randomAlnum(length: number): string {
  const chars = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
  const bytes = crypto.randomBytes(length * 2);
  let out = '';
  for (let i = 0; i < bytes.length && out.length < length; i++) {
    const b = bytes[i]!;
    if (b < 248) out += chars[b % 62];
  }
  while (out.length < length) out += chars[crypto.randomInt(62)];
  return out;
}

/** CSP source expression for an inline script or style. */
export function cspHash(content: string): string {
  return `'sha256-${crypto.createHash('sha256').update(content, 'utf8').digest('base64')}'`;
}
