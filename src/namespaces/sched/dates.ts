// PHP-style date formatting ("F j, Y g:i a (T)") in a timezone, localized to en or de.
import type { Lang } from '../../rest/types.ts';

const LOCALES: Record<Lang, string> = { en: 'en-US', de: 'de-DE' };

function parts(date: Date, timeZone: string, locale: string, opts: Intl.DateTimeFormatOptions): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of new Intl.DateTimeFormat(locale, { timeZone, ...opts }).formatToParts(date)) out[p.type] = p.value;
  return out;
}

function ordinal(n: number): string {
  const s = n % 100;
  if (s >= 11 && s <= 13) return 'th';
  return ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th';
}

export function formatPhpDate(date: Date, format: string, timeZone: string, lang: Lang): string {
  const locale = LOCALES[lang];
  const num = parts(date, timeZone, 'en-US', {
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    weekday: 'short',
  });
  const y = Number(num.year);
  const mo = Number(num.month);
  const d = Number(num.day);
  const h = Number(num.hour) % 24;
  const mi = Number(num.minute);
  const s = Number(num.second);
  const pad = (v: number, l = 2) => String(v).padStart(l, '0');
  const name = (o: Intl.DateTimeFormatOptions, type: string) => parts(date, timeZone, locale, o)[type] ?? '';
  const tzName = (style: 'short' | 'shortOffset' | 'long') => {
    const v = name({ timeZoneName: style }, 'timeZoneName');
    // en-US knows only American abbreviations; British English knows CET, BST…
    if (lang === 'en' && v.startsWith('GMT')) {
      const gb = parts(date, timeZone, 'en-GB', { timeZoneName: style }).timeZoneName ?? v;
      return gb.startsWith('GMT') ? v : gb;
    }
    return v;
  };
  const offsetMin = (() => {
    const m = /GMT([+-])(\d{1,2})(?::(\d{2}))?/.exec(
      parts(date, timeZone, 'en-US', { timeZoneName: 'shortOffset' }).timeZoneName ?? '',
    );
    return m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3] ?? 0)) : 0;
  })();
  const off = (colon: boolean) =>
    `${offsetMin < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(offsetMin) / 60))}${colon ? ':' : ''}${pad(Math.abs(offsetMin) % 60)}`;
  const weekdayIdx = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(num.weekday);
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const c = format[i];
    switch (c) {
      case '\\':
        i++;
        out += format[i] ?? '';
        break;
      case 'd':
        out += pad(d);
        break;
      case 'j':
        out += String(d);
        break;
      case 'S':
        out += lang === 'en' ? ordinal(d) : '.';
        break;
      case 'D':
        out += name({ weekday: 'short' }, 'weekday');
        break;
      case 'l':
        out += name({ weekday: 'long' }, 'weekday');
        break;
      case 'N':
        out += String(weekdayIdx === 0 ? 7 : weekdayIdx);
        break;
      case 'w':
        out += String(weekdayIdx);
        break;
      case 'F':
        out += name({ month: 'long' }, 'month');
        break;
      case 'M':
        out += name({ month: 'short' }, 'month');
        break;
      case 'm':
        out += pad(mo);
        break;
      case 'n':
        out += String(mo);
        break;
      case 'Y':
        out += String(y);
        break;
      case 'y':
        out += pad(y % 100);
        break;
      case 'a':
        out += h < 12 ? 'am' : 'pm';
        break;
      case 'A':
        out += h < 12 ? 'AM' : 'PM';
        break;
      case 'g':
        out += String(h % 12 === 0 ? 12 : h % 12);
        break;
      case 'h':
        out += pad(h % 12 === 0 ? 12 : h % 12);
        break;
      case 'G':
        out += String(h);
        break;
      case 'H':
        out += pad(h);
        break;
      case 'i':
        out += pad(mi);
        break;
      case 's':
        out += pad(s);
        break;
      case 'e':
        out += timeZone;
        break;
      case 'T':
        out += tzName('short');
        break;
      case 'O':
        out += off(false);
        break;
      case 'P':
        out += off(true);
        break;
      case 'U':
        out += String(Math.floor(date.getTime() / 1000));
        break;
      case 'c':
        out += `${y}-${pad(mo)}-${pad(d)}T${pad(h)}:${pad(mi)}:${pad(s)}${off(true)}`;
        break;
      default:
        out += c;
    }
  }
  return out;
}

/** A PHP date format in Moment.js tokens (the settings' computed `*_format_moment` fields). */

const PHP_TO_MOMENT: Record<string, string> = {
  d: 'DD',
  D: 'ddd',
  j: 'D',
  l: 'dddd',
  N: 'E',
  S: 'o',
  w: 'e',
  z: 'DDD',
  W: 'W',
  F: 'MMMM',
  m: 'MM',
  M: 'MMM',
  n: 'M',
  t: '',
  L: '',
  o: 'GGGG',
  Y: 'YYYY',
  y: 'YY',
  a: 'a',
  A: 'A',
  B: '',
  g: 'h',
  G: 'H',
  h: 'hh',
  H: 'HH',
  i: 'mm',
  s: 'ss',
  u: 'SSSSSS',
  v: 'SSS',
  e: 'zz',
  I: '',
  O: 'ZZ',
  P: 'Z',
  p: 'Z',
  T: 'z',
  Z: '',
  c: 'YYYY-MM-DD[T]HH:mm:ssZ',
  r: 'ddd, DD MMM YYYY HH:mm:ss ZZ',
  U: 'X',
};

export function phpToMoment(format: string): string {
  let out = '';
  for (let i = 0; i < format.length; i++) {
    const ch = format[i];
    if (ch === '\\') {
      i++;
      if (i < format.length) out += `[${format[i]}]`;
      continue;
    }
    if (ch === 'j' && format[i + 1] === 'S') {
      out += 'Do';
      i++;
      continue;
    }
    if (Object.hasOwn(PHP_TO_MOMENT, ch)) out += PHP_TO_MOMENT[ch];
    else if (/[A-Za-z]/.test(ch)) out += `[${ch}]`;
    else out += ch;
  }
  return out;
}
