// The post-render HTML sanitiser: rendered notification HTML never carries script.
// Script-bearing elements are dropped with their content; on… handlers and javascript:/vbscript:/
// data: URLs are removed; text is re-escaped.
import { Parser } from 'htmlparser2';
import { escapeHtml } from '../../site/html.ts';

const DROP_WITH_CONTENT = new Set([
  'script',
  'iframe',
  'object',
  'embed',
  'applet',
  'frame',
  'frameset',
  'noscript',
  'template',
  'svg',
  'math',
]);
const DROP_TAG = new Set(['base', 'meta', 'link', 'form', 'input', 'button', 'textarea', 'select']);
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'background',
  'poster',
  'xlink:href',
  'srcset',
  'lowsrc',
  'dynsrc',
]);
const VOID = new Set(['area', 'br', 'col', 'hr', 'img', 'source', 'track', 'wbr']);

function unsafeUrl(value: string): boolean {
  const v = value.replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();
  return /^(javascript|vbscript|data|file):/.test(v);
}

export function sanitizeHtml(html: string): string {
  let out = '';
  let skipDepth = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (skipDepth > 0 || DROP_WITH_CONTENT.has(name)) {
          if (!VOID.has(name)) skipDepth++;
          return;
        }
        if (DROP_TAG.has(name)) return;
        let tag = `<${name}`;
        for (const [k, v] of Object.entries(attribs)) {
          const key = k.toLowerCase();
          if (!/^[a-z][a-z0-9:_-]*$/.test(key) || key.startsWith('on') || key === 'srcdoc' || key === 'formaction')
            continue;
          if (URL_ATTRS.has(key) && unsafeUrl(v)) continue;
          if (key === 'style' && /expression\s*\(|javascript:|url\s*\(\s*['"]?\s*(javascript|data):/i.test(v)) continue;
          tag += ` ${key}="${escapeHtml(v)}"`;
        }
        out += VOID.has(name) ? `${tag} />` : `${tag}>`;
      },
      ontext(text) {
        if (skipDepth === 0)
          out += escapeHtml(text)
            .replace(/&#039;/g, "'")
            .replace(/&quot;/g, '"');
      },
      onclosetag(name, isImplied) {
        if (skipDepth > 0) {
          if (!VOID.has(name)) skipDepth--;
          return;
        }
        if (DROP_TAG.has(name) || VOID.has(name) || DROP_WITH_CONTENT.has(name)) return;
        if (!isImplied || true) out += `</${name}>`;
      },
      oncomment() {},
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: true },
  );
  parser.write(html);
  parser.end();
  return out;
}
