// WordPress's HTML and slugs as ours, for the content import (content.ts): HTML becomes our
// plain text — paragraphs and headings become paragraphs, links keep their address in
// brackets, addresses of the old site are rewritten by the caller's function — and a slug
// becomes one of ours. Pure functions: neither the source nor our database.
import { Parser } from 'htmlparser2';

const BLOCK_TAGS = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'li',
  'blockquote',
  'div',
  'figure',
  'figcaption',
  'pre',
  'table',
  'tr',
  'ul',
  'ol',
  'hr',
  'section',
]);

/** A slug of ours (lowercase letters, digits and single hyphens) from WordPress's (percent-encoded) one or a title. */
export function ourSlug(text: string): string {
  let decoded = text;
  try {
    decoded = decodeURIComponent(text);
  } catch {
    // Not valid percent-encoding: used as it is.
  }
  return decoded
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 190)
    .replace(/-+$/, '');
}

/** WordPress's HTML as our plain text (paragraphs separated by blank lines), old-site addresses made ours. */
export function htmlToText(html: string, rewrite: (url: string) => string): string {
  const paragraphs: string[] = [];
  let current = '';
  const links: string[] = [];
  const flush = () => {
    const text = current.replace(/[ \t\r\n]+/g, ' ').trim();
    if (text) paragraphs.push(text);
    current = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (BLOCK_TAGS.has(name)) flush();
        else if (name === 'br') current += '\n';
        else if (name === 'a') links.push(attrs.href ? rewrite(attrs.href) : '');
        else if (name === 'img' && attrs.src) current += ` ${attrs.alt ? `${attrs.alt} ` : ''}(${rewrite(attrs.src)}) `;
      },
      ontext(text) {
        current += text;
      },
      onclosetag(name) {
        if (name === 'a') {
          const href = links.pop();
          if (href && !current.trimEnd().endsWith(href)) current += ` (${href})`;
        } else if (BLOCK_TAGS.has(name)) flush();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  // Shortcodes and bare addresses in the text are old-site addresses too.
  return paragraphs.map(rewrite).join('\n\n');
}

/** HTML entities in a title (contributors' titles are stored with `&amp;`) decoded. */
export function plainTitle(title: string): string {
  return htmlToText(title, (u) => u).replace(/\n+/g, ' ');
}
