// Avatars drawn by the console itself (no outside requests, so no Gravatar): a person's initials
// on one of eight colours, picked from their id so that a person keeps their colour.

export interface Avatar {
  initials: string;
  /** CSS class of the colour (`avatar-c0` … `avatar-c7`). */
  colour: string;
}

export function avatarOf(name: string, id: number | string): Avatar {
  const words = name
    .trim()
    .split(/[\s._@-]+/u)
    .filter(Boolean);
  const initials =
    words.length > 1 ? [...words[0]!][0]! + [...words[1]!][0]! : [...(words[0] ?? '?')].slice(0, 2).join('');
  let n = 0;
  for (const ch of String(id)) n = (n * 31 + ch.codePointAt(0)!) % 8;
  return { initials: initials.toUpperCase(), colour: `avatar-c${n}` };
}
