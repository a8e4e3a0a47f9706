// `pattern` and patternProperties: PCRE (Unicode mode, unanchored) run as a JS RegExp.

const patternCache = new Map<string, RegExp | null>();
const PATTERN_CACHE_LIMIT = 500;

/** A pattern that does not compile never matches, as preg_match() failing does. */
export function matchesPattern(pattern: string, value: string): boolean {
  if (!value.isWellFormed()) return false; // preg_match with /u fails on invalid UTF-8
  let regex = patternCache.get(pattern);
  if (regex === undefined) {
    regex = compilePcre(pattern);
    if (patternCache.size >= PATTERN_CACHE_LIMIT) patternCache.clear();
    patternCache.set(pattern, regex);
  }
  return regex !== null && regex.test(value);
}

export function compilePcre(pattern: string): RegExp | null {
  try {
    const translated = translatePcre(pattern);
    return translated === null ? null : new RegExp(translated.source, translated.flags);
  } catch {
    return null;
  }
}

// With PHP's /u, PCRE also turns on Unicode properties: \w, \d and friends are Unicode-aware.
const WORD_CHARS = '\\p{L}\\p{N}_';
const DIGIT_CHARS = '\\p{Nd}';
const HORIZONTAL_SPACE = '\\t \\u00A0\\u1680\\u180E\\u2000-\\u200A\\u202F\\u205F\\u3000';
const POSIX_CLASSES: Record<string, string> = {
  alpha: '\\p{L}',
  digit: '\\p{Nd}',
  alnum: '\\p{L}\\p{N}',
  upper: '\\p{Lu}',
  lower: '\\p{Ll}',
  space: '\\s',
  blank: '\\t \\p{Zs}',
  xdigit: '0-9A-Fa-f',
  word: WORD_CHARS,
  punct: '\\p{P}',
  cntrl: '\\p{Cc}',
  print: '\\P{C}',
};
const JS_SYNTAX_CHARS = '^$\\.*+?()[]{}|/';

/**
 * Rewrites the PCRE constructs that JavaScript lacks or reads differently: leading option
 * settings, `$` (also before a final newline), `.` (everything but \n), \A \z \Z \h \R \Q…\E
 * \x{…}, POSIX classes, Python-style named groups, identity escapes and lone braces (syntax
 * errors in JS Unicode mode), possessive quantifiers and atomic groups (approximated as
 * greedy). Returns null for constructs with no JS counterpart (recursion, \K, \G, …).
 */
function translatePcre(pattern: string): { source: string; flags: string } | null {
  let flags = 'u';
  let i = 0;
  const leading = /^\(\?([imsxU]+)\)/.exec(pattern);
  if (leading) {
    for (const f of leading[1]!) {
      if (f === 'x' || f === 'U') return null;
      if (!flags.includes(f)) flags += f;
    }
    i = leading[0].length;
  }
  const dotAll = flags.includes('s');
  const multiline = flags.includes('m');
  let out = '';
  let inClass = false;
  let classStart = false; // right after `[` or `[^`
  let prevClassAtomIsChar = false;

  const emitClassAtom = (atom: string, isChar: boolean) => {
    out += atom;
    prevClassAtomIsChar = isChar;
    classStart = false;
  };

  while (i < pattern.length) {
    const c = pattern[i]!;
    if (c === '\\') {
      const escape = translateEscape(pattern, i, inClass);
      if (escape === null) return null;
      if (inClass) emitClassAtom(escape.text, escape.isChar);
      else out += escape.text;
      i = escape.end;
      continue;
    }
    if (inClass) {
      if (c === ']' && !classStart) {
        out += ']';
        inClass = false;
      } else if (c === '[' && pattern[i + 1] === ':') {
        const posix = /^\[:(\^?)([a-z]+):\]/.exec(pattern.slice(i));
        if (!posix || !Object.hasOwn(POSIX_CLASSES, posix[2]!) || posix[1]) return null;
        emitClassAtom(POSIX_CLASSES[posix[2]!]!, false);
        i += posix[0].length;
        continue;
      } else if (c === '-') {
        // A range only between two single characters; otherwise a literal hyphen.
        const next = pattern[i + 1];
        const nextIsChar =
          next !== undefined && next !== ']' && !(next === '\\' && /[dDwWsShHpP]/.test(pattern[i + 2] ?? ''));
        if (prevClassAtomIsChar && nextIsChar && !classStart) {
          out += '-';
          prevClassAtomIsChar = false;
        } else emitClassAtom('\\-', true);
      } else emitClassAtom(JS_SYNTAX_CHARS.includes(c) || c === '-' ? '\\' + c : c, true);
      i++;
      continue;
    }
    switch (c) {
      case '[': {
        inClass = true;
        classStart = true;
        prevClassAtomIsChar = false;
        out += '[';
        i++;
        if (pattern[i] === '^') {
          out += '^';
          i++;
        }
        if (pattern[i] === ']') {
          out += '\\]'; // a leading `]` is a literal in PCRE
          prevClassAtomIsChar = true;
          classStart = false;
          i++;
        }
        continue;
      }
      case '$':
        out += multiline ? '$' : '(?=\\n?(?![\\s\\S]))';
        break;
      case '.':
        out += dotAll ? '.' : '[^\\n]';
        break;
      case '(': {
        const group = translateGroupOpening(pattern, i);
        if (group === null) return null;
        out += group.text;
        i = group.end;
        continue;
      }
      case '{': {
        const quantifier = /^\{\d+(?:,\d*)?\}/.exec(pattern.slice(i));
        if (quantifier) {
          out += quantifier[0];
          i += quantifier[0].length;
          if (pattern[i] === '+') i++; // possessive → greedy
          continue;
        }
        out += '\\{';
        break;
      }
      case '}':
      case ']':
        out += '\\' + c;
        break;
      case '*':
      case '+':
      case '?':
        out += c;
        if (pattern[i + 1] === '+') i++; // possessive → greedy
        break;
      default:
        out += c;
    }
    i++;
  }
  if (inClass) return null;
  return { source: out, flags };
}

function translateGroupOpening(pattern: string, i: number): { text: string; end: number } | null {
  const rest = pattern.slice(i);
  if (!rest.startsWith('(?')) return { text: '(', end: i + 1 };
  const named = /^\(\?(?:P?<([A-Za-z_][A-Za-z0-9_]*)>|'([A-Za-z_][A-Za-z0-9_]*)')/.exec(rest);
  if (named) return { text: `(?<${named[1] ?? named[2]}>`, end: i + named[0].length };
  const backReference = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
  if (backReference) return { text: `\\k<${backReference[1]}>`, end: i + backReference[0].length };
  const comment = /^\(\?#[^)]*\)/.exec(rest);
  if (comment) return { text: '', end: i + comment[0].length };
  if (rest.startsWith('(?>')) return { text: '(?:', end: i + 3 }; // atomic → plain group
  if (/^\(\?(?::|=|!|<=|<!)/.test(rest)) {
    const opening = /^\(\?(?::|=|!|<=|<!)/.exec(rest)![0];
    return { text: opening, end: i + opening.length };
  }
  const modifiers = /^\(\?([ims]*)(?:-([ims]*))?:/.exec(rest);
  if (modifiers) return { text: modifiers[0], end: i + modifiers[0].length };
  return null; // recursion, conditionals, inline options mid-pattern…
}

function translateEscape(
  pattern: string,
  i: number,
  inClass: boolean,
): { text: string; end: number; isChar: boolean } | null {
  const c = pattern[i + 1];
  if (c === undefined) return null;
  const simple = (text: string, isChar = false) => ({ text, end: i + 2, isChar });
  switch (c) {
    case 'w':
      return simple(inClass ? WORD_CHARS : `[${WORD_CHARS}]`);
    case 'W':
      return inClass ? null : simple(`[^${WORD_CHARS}]`);
    case 'd':
      return simple(DIGIT_CHARS);
    case 'D':
      return simple('\\P{Nd}');
    case 's':
    case 'S':
      return simple('\\' + c);
    case 'b':
      return simple(inClass ? '\\x08' : '\\b', inClass); // backspace inside a class
    case 'B':
      return inClass ? null : simple('\\B');
    case 'h':
      return simple(inClass ? HORIZONTAL_SPACE : `[${HORIZONTAL_SPACE}]`);
    case 'H':
      return inClass ? null : simple(`[^${HORIZONTAL_SPACE}]`);
    case 'R':
      return inClass ? null : simple('(?:\\r\\n|[\\n\\v\\f\\r\\u0085\\u2028\\u2029])');
    case 'A':
      return inClass ? null : simple('(?<![\\s\\S])');
    case 'z':
      return inClass ? null : simple('(?![\\s\\S])');
    case 'Z':
      return inClass ? null : simple('(?=\\n?(?![\\s\\S]))');
    case 'e':
      return simple('\\x1B', true);
    case 'a':
      return simple('\\x07', true);
    case 'n':
    case 'r':
    case 't':
    case 'f':
    case 'v':
      return simple('\\' + c, true);
    case 'x': {
      const braced = /^\\x\{([0-9a-fA-F]{1,6})\}/.exec(pattern.slice(i));
      if (braced) return { text: `\\u{${braced[1]}}`, end: i + braced[0].length, isChar: true };
      const short = /^\\x([0-9a-fA-F]{0,2})/.exec(pattern.slice(i))!;
      return { text: `\\u{${short[1] || '0'}}`, end: i + short[0].length, isChar: true };
    }
    case 'p':
    case 'P': {
      const property = /^\\[pP](?:\{(\^?)([A-Za-z_&]+)\}|([A-Za-z]))/.exec(pattern.slice(i));
      if (!property) return null;
      const negated = (c === 'P') !== Boolean(property[1]);
      const name = property[2] ?? property[3]!;
      const jsName = /^(?:L[ultmo&]?|M[nce]?|N[dlo]?|P[cdseifo]?|S[mcko]?|Z[slp]?|C[cfson]?|Any)$/.test(name)
        ? name.replace('&', 'C') // PCRE's L& is LC
        : `Script=${name}`;
      return { text: `\\${negated ? 'P' : 'p'}{${jsName}}`, end: i + property[0].length, isChar: false };
    }
    case 'Q': {
      const close = pattern.indexOf('\\E', i + 2);
      const literal = pattern.slice(i + 2, close === -1 ? undefined : close);
      const escaped = Array.from(literal, (ch) =>
        /[0-9A-Za-z]/.test(ch) ? ch : `\\u{${ch.codePointAt(0)!.toString(16)}}`,
      ).join('');
      return {
        text: inClass ? escaped : `(?:${escaped})`,
        end: close === -1 ? pattern.length : close + 2,
        isChar: false,
      };
    }
    case 'E':
      return { text: '', end: i + 2, isChar: false };
  }
  if (/[0-9]/.test(c)) {
    if (inClass) return null;
    const digits = /^\\([0-9]+)/.exec(pattern.slice(i))!;
    return { text: '\\' + digits[1], end: i + digits[0].length, isChar: false };
  }
  if (/[A-Za-z]/.test(c)) return null; // \K \G \X \C and unknown letters
  // Identity escape of a non-alphanumeric: only syntax characters may be escaped in JS /u.
  const code = pattern.codePointAt(i + 1)!;
  const ch = String.fromCodePoint(code);
  const text = JS_SYNTAX_CHARS.includes(ch) || (inClass && ch === '-') ? '\\' + ch : `\\u{${code.toString(16)}}`;
  return { text, end: i + 1 + ch.length, isChar: true };
}
