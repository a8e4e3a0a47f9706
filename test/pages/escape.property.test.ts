// Properties of the HTML output helpers: escaped text is always text; sanitised provider
// HTML only ever contains the allowed elements and attributes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Parser } from 'htmlparser2';
import { escapeHtml, safeUrl } from '../../src/site/html.ts';
import { paragraphs } from '../../src/pages/public.ts';
import { sanitizeDiscoveredHtml } from '../../src/namespaces/oembed/sanitize.ts';

function parse(html: string) {
  const tags: { name: string; attrs: Record<string, string> }[] = [];
  let text = '';
  const p = new Parser(
    {
      onopentag(name, attrs) {
        tags.push({ name, attrs });
      },
      ontext(t) {
        text += t;
      },
    },
    { decodeEntities: true },
  );
  p.write(html);
  p.end();
  return { tags, text };
}

const htmlish = fc.stringMatching(/^[<>&"' a-z=\/!\-:;()\[\]{}]{0,60}$/).map((s) => s);
const anyText = fc.oneof(fc.string({ maxLength: 80 }), htmlish, fc.string({ unit: 'binary', maxLength: 40 }));

test('escaped text parses back to itself, in content and in attributes', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const body = parse(`<p>${escapeHtml(s)}</p>`);
      assert.deepEqual(
        body.tags.map((x) => x.name),
        ['p'],
      );
      assert.equal(body.text, s);
      const attr = parse(`<a title="${escapeHtml(s)}" data-x='${escapeHtml(s)}'>x</a>`);
      assert.deepEqual(
        attr.tags.map((x) => x.name),
        ['a'],
      );
      assert.deepEqual(Object.keys(attr.tags[0]!.attrs).sort(), ['data-x', 'title']);
    }),
    { numRuns: 500 },
  );
});

test('paragraphs never produce markup from the text', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const { tags } = parse(paragraphs(s));
      assert.ok(tags.every((x) => x.name === 'p' || x.name === 'br'));
      assert.ok(tags.every((x) => Object.keys(x.attrs).length === 0));
    }),
    { numRuns: 500 },
  );
});

test('safeUrl only lets http(s) and site paths through', () => {
  fc.assert(
    fc.property(anyText, (s) => {
      const u = safeUrl(s);
      if (u === '') return;
      assert.ok(/^https?:\/\//i.test(u) || (u.startsWith('/') && !u.startsWith('//')), u);
    }),
    { numRuns: 500 },
  );
  assert.equal(safeUrl('javascript:alert(1)'), '');
  assert.equal(safeUrl(' JAVASCRIPT:alert(1)'), '');
  assert.equal(safeUrl('//evil.example/x'), '');
  assert.equal(safeUrl('/\\evil.example'), '');
  assert.equal(safeUrl('data:text/html,x'), '');
});

const ALLOWED: Record<string, Set<string>> = {
  a: new Set(['href']),
  blockquote: new Set(['class', 'data-secret']),
  iframe: new Set([
    'class',
    'sandbox',
    'security',
    'style',
    'src',
    'data-secret',
    'width',
    'height',
    'frameborder',
    'marginwidth',
    'marginheight',
    'scrolling',
    'title',
  ]),
};
const fragment = fc
  .array(
    fc.oneof(
      anyText,
      fc.constantFrom(
        '<script>alert(1)</script>',
        '<iframe src="https://a.example/x" onload="x()">',
        '</iframe>',
        '<a href="javascript:x">',
        '<a href="https://ok.example/">',
        '</a>',
        '<blockquote cite="x">',
        '</blockquote>',
        '<img src=x onerror=y>',
        '<style>*{}</style>',
        '<svg onload=x>',
        '<iframe src=//x>',
        '<!-- c -->',
        '<iframe srcdoc="<script>">',
      ),
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

test('sanitised provider HTML contains only allowed elements and attributes', () => {
  fc.assert(
    fc.property(fragment, (html) => {
      const out = sanitizeDiscoveredHtml(html, 'abcdefghij');
      if (out === null) return;
      const { tags } = parse(out);
      assert.ok(tags.some((x) => x.name === 'iframe'));
      for (const tag of tags) {
        assert.ok(tag.name in ALLOWED, `${tag.name} in ${out}`);
        for (const a of Object.keys(tag.attrs)) assert.ok(ALLOWED[tag.name]!.has(a), `${tag.name}[${a}] in ${out}`);
        if (tag.name === 'iframe') {
          assert.equal(tag.attrs.sandbox, 'allow-scripts');
          assert.match(tag.attrs.src!, /^https?:\/\/.*#\?secret=abcdefghij$/);
        }
        if (tag.name === 'a' && tag.attrs.href !== undefined) assert.match(tag.attrs.href, /^https?:\/\//);
      }
    }),
    { numRuns: 500 },
  );
});
