// HTML handling of the oEmbed proxy with a real HTML parser (htmlparser2): discovery of
// oEmbed endpoints in a page's <head>, and sanitising of HTML from providers found only by
// discovery (rest-core §9.2 step 6).
import { Parser } from 'htmlparser2';
import { escapeAttr, escapeHtml, randomAlnum } from '../../site/html.ts';

export interface DiscoveredLinks {
  json: string | null;
  xml: string | null;
}

/**
 * The oEmbed endpoint links of a page: `<link rel="alternate" type="application/json+oembed">`
 * (preferred) or `text/xml+oembed` / `application/xml+oembed`, read from the head only,
 * resolved against the page address.
 */
export function discoverLinks(html: string, pageUrl: string): DiscoveredLinks {
  const out: DiscoveredLinks = { json: null, xml: null };
  let inBody = false;
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'body') inBody = true;
        if (inBody || name !== 'link') return;
        const rel = (attrs.rel ?? '').toLowerCase().split(/\s+/);
        const type = (attrs.type ?? '').toLowerCase().trim();
        const href = attrs.href;
        if (!href || !rel.includes('alternate')) return;
        let resolved: string;
        try {
          resolved = new URL(href.trim(), pageUrl).toString();
        } catch {
          return;
        }
        if (type === 'application/json+oembed' && !out.json) out.json = resolved;
        else if ((type === 'text/xml+oembed' || type === 'application/xml+oembed') && !out.xml) out.xml = resolved;
      },
      onclosetag(name) {
        if (name === 'head') inBody = true;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  return out;
}

function httpUrl(value: string | undefined): string | null {
  if (!value) return null;
  try {
    const u = new URL(value.trim());
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.toString() : null;
  } catch {
    return null;
  }
}

const DROP_CONTENT = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'textarea',
  'title',
  'object',
  'embed',
  'svg',
  'math',
  'iframe-content',
]);
const IFRAME_ATTRS = ['width', 'height', 'frameborder', 'marginwidth', 'marginheight', 'scrolling', 'title'];

/**
 * Keeps only `a[href]`, `blockquote` and `iframe[src,width,height,frameborder,marginwidth,
 * marginheight,scrolling,title]` (text is kept, escaped; script/style contents are dropped).
 * An iframe is required (else null). A secret is added to the iframe src and as
 * `data-secret`; the iframe gets `class="wp-embedded-content" sandbox="allow-scripts"
 * security="restricted"` and is hidden while a blockquote fallback exists.
 */
export function sanitizeDiscoveredHtml(html: string, secret = randomAlnum(10)): string | null {
  const stack: string[] = [];
  let out = '';
  let dropDepth = 0;
  let iframes = 0;
  let hasBlockquote = false;
  let inIframe = false;
  const parts: { kind: 'blockquote-open' | 'iframe-open' | 'text'; value: string }[] = [];
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (dropDepth > 0 || inIframe || DROP_CONTENT.has(name)) {
          dropDepth++;
          return;
        }
        if (name === 'a') {
          const href = httpUrl(attrs.href);
          parts.push({ kind: 'text', value: href ? `<a href="${escapeAttr(href)}">` : '<a>' });
          stack.push('a');
        } else if (name === 'blockquote') {
          hasBlockquote = true;
          parts.push({ kind: 'blockquote-open', value: '' });
          stack.push('blockquote');
        } else if (name === 'iframe') {
          const src = httpUrl(attrs.src);
          if (!src) {
            dropDepth++;
            return;
          }
          const u = new URL(src);
          u.hash = `?secret=${secret}`;
          let tag = `<iframe src="${escapeAttr(u.toString())}" data-secret="${secret}"`;
          for (const a of IFRAME_ATTRS) {
            const v = attrs[a];
            if (v === undefined) continue;
            if (
              ['width', 'height', 'frameborder', 'marginwidth', 'marginheight'].includes(a) &&
              !/^\d{1,5}$/.test(v.trim())
            )
              continue;
            tag += ` ${a}="${escapeAttr(v)}"`;
          }
          parts.push({ kind: 'iframe-open', value: tag });
          iframes++;
          stack.push('iframe');
          inIframe = true; // fallback content of an iframe is dropped
        } else {
          stack.push('');
        }
      },
      ontext(text) {
        if (dropDepth > 0 || inIframe) return;
        parts.push({ kind: 'text', value: escapeHtml(text) });
      },
      onclosetag(name) {
        if (dropDepth > 0) {
          dropDepth--;
          return;
        }
        const top = stack.pop();
        if (top === undefined) return;
        if (top === 'iframe') inIframe = false;
        if (top === 'a' || top === 'blockquote' || top === 'iframe') parts.push({ kind: 'text', value: `</${top}>` });
        void name;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true, recognizeSelfClosing: false },
  );
  parser.write(html);
  parser.end();
  if (iframes === 0) return null;
  for (const p of parts) {
    if (p.kind === 'blockquote-open') out += `<blockquote class="wp-embedded-content" data-secret="${secret}">`;
    else if (p.kind === 'iframe-open') {
      out +=
        p.value.replace(
          '<iframe',
          `<iframe class="wp-embedded-content" sandbox="allow-scripts" security="restricted"${hasBlockquote ? ' style="position: absolute; visibility: hidden;"' : ''}`,
        ) + '>';
    } else out += p.value;
  }
  return out.trim();
}
