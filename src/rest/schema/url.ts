// The URL sanitiser (esc_url_raw / sanitize_url), with wp_kses_bad_protocol's scheme filter.
import { asciiLower } from '../../util.ts';
import { isScalar, phpLtrim, phpScalarString, phpTrim } from './php.ts';

const ALLOWED_PROTOCOLS = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'news',
  'irc',
  'irc6',
  'ircs',
  'gopher',
  'nntp',
  'feed',
  'telnet',
  'mms',
  'rtsp',
  'sms',
  'svn',
  'tel',
  'fax',
  'xmpp',
  'webcal',
  'urn',
];

export function sanitizeUrl(value: unknown): string {
  if (!isScalar(value)) return '';
  let url = phpScalarString(value);
  if (url === '') return url;

  url = phpLtrim(url).replaceAll(' ', '%20');
  url = url.replace(/[^a-z0-9\-~+_.?#=!&;,/:%@$|*'()[\]\u0080-\uffff]/gi, '');
  if (url === '') return url;

  if (!asciiLower(url).startsWith('mailto:')) url = removeEncodedNewlines(url);
  url = url.replaceAll(';//', '://');
  // No scheme: presume http://, unless relative (/ # ?) or a PHP file.
  if (!url.includes(':') && !'/#?'.includes(url[0]!) && !/^[a-z0-9-]+?\.php/i.test(url)) url = 'http://' + url;
  if (url.includes('[') || url.includes(']')) url = encodeBracketsAfterHost(url);

  if (url[0] === '/') return url;
  const goodProtocolUrl = ksesBadProtocol(url);
  return asciiLower(goodProtocolUrl) === asciiLower(url) ? goodProtocolUrl : '';
}

/** _deep_replace of %0d/%0a/%0D/%0A; removals cannot overlap, so one stack pass suffices. */
function removeEncodedNewlines(url: string): string {
  if (!/%0[dDaA]/.test(url)) return url;
  const out: string[] = [];
  for (const ch of url) {
    out.push(ch);
    const n = out.length;
    if (n >= 3 && out[n - 3] === '%' && out[n - 2] === '0' && 'dDaA'.includes(out[n - 1]!)) out.length = n - 3;
  }
  return out.join('');
}

/** Square brackets are only legal in the host ([::1]); elsewhere they become %5B / %5D. */
function encodeBracketsAfterHost(url: string): string {
  let front = '';
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(url);
  if (scheme) {
    front = scheme[1] + '://';
    const authority = /^\/\/(?:([^/?#@]*)@)?(\[[^\]/?#]*\]|[^:/?#[\]]*)(?::(\d+))?/.exec(url.slice(scheme[0].length));
    if (authority)
      front +=
        (authority[1] !== undefined ? authority[1] + '@' : '') +
        authority[2] +
        (authority[3] ? ':' + authority[3] : '');
  } else if (url[0] === '/') {
    front = '//';
  }
  const endDirty = front === '' ? url : url.replaceAll(front, '');
  const endClean = endDirty.replaceAll('[', '%5B').replaceAll(']', '%5D');
  return endDirty === '' ? url : url.replaceAll(endDirty, endClean);
}

/** wp_kses_bad_protocol: strips disallowed schemes, repeatedly (up to 6 times). */
function ksesBadProtocol(url: string): string {
  let content = ksesNoNull(url);
  if (content.startsWith('https://') || content.startsWith('http://')) return content;
  let original: string;
  let iterations = 0;
  do {
    original = content;
    content = ksesBadProtocolOnce(content, 1);
  } while (original !== content && ++iterations < 6);
  return original !== content ? '' : content;
}

function ksesBadProtocolOnce(text: string, count: number): string {
  let content = text.replace(/(&#0*58(?![;0-9])|&#x0*3a(?![;a-f0-9]))/gi, '$1;');
  const separator = /:|&#0*58;|&#x0*3a;|&colon;/i.exec(content);
  if (!separator) return content;
  const scheme = content.slice(0, separator.index);
  if (scheme.includes('/?')) return content;
  content = phpTrim(content.slice(separator.index + separator[0].length));
  const protocol = allowedProtocolPrefix(scheme);
  if (protocol === 'feed:') {
    if (count > 2) return '';
    content = ksesBadProtocolOnce(content, count + 1);
    if (content === '' || content === '0') return content;
  }
  return protocol + content;
}

function allowedProtocolPrefix(rawScheme: string): string {
  const scheme = asciiLower(
    ksesNoNull(
      rawScheme
        .replace(/&#([0-9]+);/g, (_, n: string) => String.fromCharCode(Number(n) % 256))
        .replace(/&#[Xx]([0-9A-Fa-f]+);/g, (_, h: string) => String.fromCharCode(parseInt(h, 16) % 256))
        .replace(/[ \t\n\r\v\f]/g, ''),
    ),
  );
  return ALLOWED_PROTOCOLS.includes(scheme) ? `${scheme}:` : '';
}

function ksesNoNull(text: string): string {
  return text.replace(/[\x00-\x08\x0B\x0C\x0E-\x1F]/g, '').replace(/\\+0+/g, '');
}
