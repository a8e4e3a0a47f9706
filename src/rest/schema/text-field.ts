// sanitize_text_field / sanitize_textarea_field: invalid UTF-8, tags (wp_strip_all_tags with
// PHP's strip_tags() state machine), percent-encoded octets and whitespace.
import { asciiLower } from '../../util.ts';
import { isNull, isScalar, phpString, phpTrim } from './php.ts';

export function sanitizeTextField(value: unknown, keepNewlines = false): string {
  if (!isScalar(value) && !isNull(value)) return '';
  let text = phpString(value);
  if (!text.isWellFormed()) return ''; // wp_check_invalid_utf8: invalid text is dropped whole

  if (text.includes('<')) {
    text = escapeUnclosedTags(text);
    text = stripAllTags(text);
    // An entity, so that later newline stripping cannot produce a working tag.
    text = text.replaceAll('<\n', '&lt;\n');
  }
  // Runs of whitespace other than a lone space become one space.
  if (!keepNewlines) text = text.replace(/(?: [\r\n\t ]|[\r\n\t])[\r\n\t ]*/g, ' ');
  text = phpTrim(text);

  const removed = removePercentOctets(text);
  return removed === text ? text : phpTrim(removed.replace(/ +/g, ' '));
}

/**
 * Removes `%XX` octets until none is left, as the reference's loop does (removals can make
 * new ones: `%%4141` → ``). Removals cannot overlap, so one stack pass gives the same result in
 * linear time.
 */
function removePercentOctets(text: string): string {
  if (!/%[0-9a-fA-F]{2}/.test(text)) return text;
  const out: string[] = [];
  for (const ch of text) {
    out.push(ch);
    const n = out.length;
    if (n >= 3 && out[n - 3] === '%' && isHexDigit(out[n - 2]!) && isHexDigit(out[n - 1]!)) out.length = n - 3;
  }
  return out.join('');
}

function isHexDigit(ch: string): boolean {
  return /^[0-9a-fA-F]$/.test(ch);
}

/** wp_pre_kses_less_than: a `<` not closed by `>` before the next `<` is HTML-escaped. */
function escapeUnclosedTags(text: string): string {
  return text.replace(/<[^>]*?(?:(?=<)|>|(?=\n?$))/g, (segment) =>
    segment.includes('>') ? segment : escHtml(segment),
  );
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#039;' };

/** esc_html without double encoding: existing entities are kept. */
function escHtml(text: string): string {
  return text.replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#[xX][0-9a-fA-F]+);)|[<>"']/g, (ch) => HTML_ESCAPES[ch]!);
}

/** wp_strip_all_tags: script/style elements with their content, then PHP strip_tags, then trim. */
function stripAllTags(text: string): string {
  // After escapeUnclosedTags there is often no `<` left: then both steps only drop NUL bytes.
  if (!text.includes('<')) return phpTrim(text.replaceAll('\0', ''));
  return phpTrim(phpStripTags(removeScriptAndStyle(text)));
}

/** `@<(script|style)[^>]*?>.*?</\1>@si`, in linear time. */
function removeScriptAndStyle(text: string): string {
  const lower = asciiLower(text);
  const opening = /<(script|style)[^>]*>/g;
  const closed = new Set<string>(); // tags with no closing tag left
  let out = '';
  let copiedUpTo = 0;
  let m: RegExpExecArray | null;
  while ((m = opening.exec(lower))) {
    const tag = m[1]!;
    if (closed.has(tag)) {
      opening.lastIndex = m.index + 1;
      continue;
    }
    const close = lower.indexOf(`</${tag}>`, opening.lastIndex);
    if (close === -1) {
      closed.add(tag);
      opening.lastIndex = m.index + 1;
      continue;
    }
    out += text.slice(copiedUpTo, m.index);
    copiedUpTo = close + tag.length + 3;
    opening.lastIndex = copiedUpTo;
  }
  return out + text.slice(copiedUpTo);
}

/** PHP's strip_tags() state machine (no allowed tags): text, tag, `<?`, `<!`, comment. */
function phpStripTags(text: string): string {
  let out = '';
  let state = 0; // 0 text, 1 tag, 2 php, 3 declaration, 4 comment
  let depth = 0;
  let inQuote = '';
  let lastChar = '';
  let parens = 0;
  const isSpace = (ch: string | undefined) => ch !== undefined && ' \t\n\v\f\r'.includes(ch);
  const plainRun = /[^<>\0]+/y;
  for (let i = 0; i < text.length; i++) {
    if (state === 0) {
      // Copy runs of ordinary text at once.
      plainRun.lastIndex = i;
      if (plainRun.test(text)) {
        out += text.slice(i, plainRun.lastIndex);
        i = plainRun.lastIndex - 1;
        continue;
      }
    }
    const c = text[i]!;
    const prev = i > 0 ? text[i - 1]! : '';
    switch (state) {
      case 0:
        if (c === '\0') break;
        if (c === '<') {
          if (isSpace(text[i + 1])) out += c;
          else {
            lastChar = '<';
            state = 1;
          }
        } else if (c === '>') {
          if (depth) depth--;
          else out += c;
        } else out += c;
        break;
      case 1:
        if (c === '<') {
          if (!inQuote && !isSpace(text[i + 1])) depth++;
        } else if (c === '>') {
          if (depth) depth--;
          else if (!inQuote) {
            lastChar = '>';
            state = 0;
            inQuote = '';
          }
        } else if (c === '"' || c === "'") {
          if (i !== 0 && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '!' && prev === '<') {
          state = 3;
          lastChar = c;
        } else if (c === '?' && prev === '<') {
          parens = 0;
          state = 2;
        }
        break;
      case 2:
        if (c === '(' && lastChar !== '"' && lastChar !== "'") {
          lastChar = '(';
          parens++;
        } else if (c === ')' && lastChar !== '"' && lastChar !== "'") {
          lastChar = ')';
          parens--;
        } else if (c === '>') {
          if (depth) depth--;
          else if (!inQuote && !parens && lastChar !== '"' && prev === '?') {
            inQuote = '';
            state = 0;
          }
        } else if (c === '"' || c === "'") {
          if (prev !== '\\') {
            if (lastChar === c) lastChar = '';
            else if (lastChar !== '\\') lastChar = c;
          }
          if (!inQuote || c === inQuote) inQuote = inQuote ? '' : c;
        } else if ((c === 'l' || c === 'L') && i > 4 && /^<\?xm$/i.test(text.slice(i - 4, i))) {
          state = 1;
        }
        break;
      case 3:
        if (c === '>') {
          if (depth) depth--;
          else if (!inQuote) {
            inQuote = '';
            state = 0;
          }
        } else if (c === '"' || c === "'") {
          if (prev !== '\\' && (!inQuote || c === inQuote)) inQuote = inQuote ? '' : c;
        } else if (c === '-' && i >= 2 && text.slice(i - 2, i) === '!-') {
          state = 4;
        } else if ((c === 'e' || c === 'E') && i >= 6 && text.slice(i - 6, i).toLowerCase() === 'doctyp') {
          state = 1;
        }
        break;
      case 4:
        if (c === '>' && !inQuote && i >= 2 && text.slice(i - 2, i) === '--') {
          inQuote = '';
          state = 0;
        }
        break;
    }
  }
  return out;
}
