// GET embed_booking_app (reference plugins.md §2.11): a small JavaScript program that inserts
// an <iframe> of the booking page before the calling <script> element.
//
// Safety: only whitelisted attributes pass; every value is length-limited, stripped of control
// characters and URL-encoded into the iframe address, and every string reaches the script as a
// JSON literal with <, >, &, U+2028 and U+2029 escaped — so no caller-supplied text can close
// the script, start markup or run code. The iframe is built with DOM calls, never parsed HTML.
import type { AuthUser } from '../../auth/types.ts';
import type { Lang } from '../../rest/types.ts';
import { userCan } from './caps.ts';
import { MSG } from './messages.ts';

export const EMBED_ATTRIBUTES = [
  'type',
  'types',
  'label',
  'edit',
  'view',
  'flow',
  'fallback_flow',
  'date_view',
  'time_view',
  'appointment_types_view',
  'accent_color',
  'background',
  'padding',
  'font',
  'availability_start_date',
  'availability_end_date',
  'suggest_first_available',
  'suggest_first_available_within_minutes',
  'booking_url',
  'booking_post_id',
  'booking_title',
  'redirect_post_id',
  'hide_header',
  'ssa_locale',
  'mepr_membership_id',
] as const;

/** Path of the booking page under the language root (the iframe's target). */
// The demo booking page's embed view: the one page kind other sites may frame.
export const BOOKING_PAGE_PATH = '/booking/embed/';
const MAX_VALUE = 500;

function clean(v: unknown): string | null {
  if (v === undefined || v === null) return null;
  if (Array.isArray(v))
    return v.every((x) => typeof x === 'string' || typeof x === 'number') ? clean(v.join(',')) : null;
  if (typeof v === 'object') return null; // objects are not attribute values
  const s = String(v)
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .slice(0, MAX_VALUE);
  return s;
}

/** JSON string literal safe inside any script context. */
export function jsString(s: string): string {
  return JSON.stringify(s)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export function embedAttributes(raw: Record<string, unknown>, user: AuthUser | null): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of EMBED_ATTRIBUTES) {
    const v = clean(raw[name]);
    if (v === null || v === '') continue;
    if (name === 'booking_url' && !/^https?:\/\//i.test(v)) continue;
    out[name] = v;
  }
  // edit=<appointment id> only with its token, or for staff who manage appointments.
  if (out.edit !== undefined) {
    const token = clean(raw.token);
    if (token) out.token = token;
    else if (!userCan(user, 'ssa_manage_appointments')) delete out.edit;
  }
  return out;
}

export function embedScript(siteUrl: string, lang: Lang, raw: Record<string, unknown>, user: AuthUser | null): string {
  const attrs = embedAttributes(raw, user);
  const src = new URL(`${siteUrl}/${lang}${BOOKING_PAGE_PATH}`);
  for (const [k, v] of Object.entries(attrs)) src.searchParams.set(k, v);
  src.searchParams.set('embedded', '1');
  const origin = new URL(siteUrl).origin;
  const title = attrs.label ?? MSG.bookAppointment[lang];
  return `/* sched booking app embed */
(function () {
  'use strict';
  var src = ${jsString(src.toString())};
  var origin = ${jsString(origin)};
  var title = ${jsString(title)};
  var script = document.currentScript;
  var iframe = document.createElement('iframe');
  iframe.setAttribute('src', src);
  iframe.setAttribute('title', title);
  iframe.setAttribute('width', '100%');
  iframe.setAttribute('height', '600');
  iframe.setAttribute('frameborder', '0');
  iframe.setAttribute('loading', 'lazy');
  iframe.setAttribute('allow', 'payment');
  iframe.className = 'sched-booking-app';
  iframe.style.border = '0';
  iframe.style.width = '100%';
  if (script && script.parentNode) {
    script.parentNode.insertBefore(iframe, script);
  } else {
    document.body.appendChild(iframe);
  }
  window.addEventListener('message', function (event) {
    if (event.origin !== origin || event.source !== iframe.contentWindow) return;
    var data = event.data;
    if (data && typeof data === 'object' && typeof data.height === 'number' && data.height > 0 && data.height < 20000) {
      iframe.style.height = Math.ceil(data.height) + 'px';
    }
  });
})();
`;
}
