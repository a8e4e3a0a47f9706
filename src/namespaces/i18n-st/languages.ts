// The site's active languages as the string registry sees them: codes, display names in
// each admin language, and flag images (inline SVG, so the URLs always resolve).
import type { Lang } from '../../rest/types.ts';
import { LANGS } from '../../rest/types.ts';

export const ACTIVE_LANGUAGES: readonly Lang[] = LANGS;
/** The site's default language: English. */
export const DEFAULT_LANGUAGE: Lang = 'en';

const NAMES: Record<Lang, Record<Lang, string>> = {
  en: { en: 'English', de: 'Englisch' },
  de: { en: 'German', de: 'Deutsch' },
};

const FLAGS: Record<Lang, string> = {
  en:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 30" width="18" height="12">' +
    '<rect width="60" height="30" fill="#012169"/><path d="M0,0 60,30M60,0 0,30" stroke="#fff" stroke-width="6"/>' +
    '<path d="M0,0 60,30M60,0 0,30" stroke="#C8102E" stroke-width="2"/><path d="M30,0v30M0,15h60" stroke="#fff" stroke-width="10"/>' +
    '<path d="M30,0v30M0,15h60" stroke="#C8102E" stroke-width="6"/></svg>',
  de:
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 5 3" width="18" height="12">' +
    '<rect width="5" height="3" fill="#000"/><rect y="1" width="5" height="2" fill="#D00"/><rect y="2" width="5" height="1" fill="#FFCE00"/></svg>',
};

export function isActiveLanguage(code: unknown): code is Lang {
  return typeof code === 'string' && (ACTIVE_LANGUAGES as readonly string[]).includes(code);
}

/** Display name of a language code in the given admin language (the code itself when unknown). */
export function languageName(code: string, inLang: Lang): string {
  return isActiveLanguage(code) ? NAMES[code][inLang] : code;
}

export function languageFlagUrl(code: string): string {
  return isActiveLanguage(code) ? `data:image/svg+xml;base64,${Buffer.from(FLAGS[code]).toString('base64')}` : '';
}

/** Languages a string in `source` is translated into. */
export function targetLanguages(source: string): Lang[] {
  return ACTIVE_LANGUAGES.filter((l) => l !== source);
}
