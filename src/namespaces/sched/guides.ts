// GET fetch-guides: a bundled, localized guide catalogue (the server never calls the vendor).
import type { Lang } from '../../rest/types.ts';

export interface Guide {
  id: number;
  slug: string;
  category: 'getting-started' | 'notifications' | 'settings' | 'troubleshooting' | 'embedding';
  tags: string[];
  updated: string;
  title: Record<Lang, string>;
  excerpt: Record<Lang, string>;
}

export const GUIDES: Guide[] = [
  {
    id: 1,
    slug: 'first-steps',
    category: 'getting-started',
    tags: ['setup', 'wizard'],
    updated: '2026-01-15',
    title: { en: 'First steps with scheduling', de: 'Erste Schritte mit der Terminplanung' },
    excerpt: {
      en: 'Set your timezone, business details and first appointment type.',
      de: 'Zeitzone, Firmendaten und die erste Terminart einstellen.',
    },
  },
  {
    id: 2,
    slug: 'notification-templates',
    category: 'notifications',
    tags: ['email', 'twig', 'templates'],
    updated: '2026-03-02',
    title: { en: 'Writing notification templates', de: 'Benachrichtigungsvorlagen schreiben' },
    excerpt: {
      en: 'Use Twig variables such as {{ Appointment.customer_start_date }} in subjects and messages.',
      de: 'Twig-Variablen wie {{ Appointment.customer_start_date }} in Betreff und Nachricht verwenden.',
    },
  },
  {
    id: 3,
    slug: 'template-variables',
    category: 'notifications',
    tags: ['twig', 'variables'],
    updated: '2026-03-02',
    title: { en: 'Template variables reference', de: 'Referenz der Vorlagenvariablen' },
    excerpt: {
      en: 'Every variable available to notification and calendar templates.',
      de: 'Alle Variablen für Benachrichtigungs- und Kalendervorlagen.',
    },
  },
  {
    id: 4,
    slug: 'timezones',
    category: 'settings',
    tags: ['timezone', 'dates'],
    updated: '2025-11-20',
    title: { en: 'Timezones and date formats', de: 'Zeitzonen und Datumsformate' },
    excerpt: {
      en: 'How business and customer timezones are shown in emails.',
      de: 'Wie Geschäfts- und Kundenzeitzonen in E-Mails erscheinen.',
    },
  },
  {
    id: 5,
    slug: 'styles',
    category: 'settings',
    tags: ['colors', 'css', 'fonts'],
    updated: '2025-10-01',
    title: { en: 'Styling the booking app', de: 'Die Buchungs-App gestalten' },
    excerpt: {
      en: 'Accent colour, background, font, padding and custom CSS.',
      de: 'Akzentfarbe, Hintergrund, Schrift, Innenabstand und eigenes CSS.',
    },
  },
  {
    id: 6,
    slug: 'email-delivery',
    category: 'troubleshooting',
    tags: ['email', 'smtp'],
    updated: '2026-02-10',
    title: { en: 'Emails are not arriving', de: 'E-Mails kommen nicht an' },
    excerpt: {
      en: 'Check the mail server connection on the support status page.',
      de: 'Die Verbindung zum Mailserver auf der Support-Statusseite prüfen.',
    },
  },
  {
    id: 7,
    slug: 'debug-logs',
    category: 'troubleshooting',
    tags: ['debug', 'logs'],
    updated: '2026-02-10',
    title: { en: 'Using the debug logs', de: 'Die Debug-Protokolle verwenden' },
    excerpt: {
      en: 'Turn on debug mode, reproduce the problem, download the logs.',
      de: 'Debug-Modus einschalten, Problem nachstellen, Protokolle herunterladen.',
    },
  },
  {
    id: 8,
    slug: 'embed-booking-app',
    category: 'embedding',
    tags: ['embed', 'iframe'],
    updated: '2026-04-05',
    title: {
      en: 'Embedding the booking app on another site',
      de: 'Die Buchungs-App auf einer anderen Website einbetten',
    },
    excerpt: {
      en: 'Add one script tag; choose types, colours and the date view with attributes.',
      de: 'Ein Script-Tag einfügen; Terminarten, Farben und Datumsansicht per Attribut wählen.',
    },
  },
  {
    id: 9,
    slug: 'export-import',
    category: 'settings',
    tags: ['export', 'import', 'backup'],
    updated: '2026-05-12',
    title: { en: 'Moving settings between sites', de: 'Einstellungen zwischen Websites übertragen' },
    excerpt: {
      en: 'Export settings and notices, then import them on the other site.',
      de: 'Einstellungen und Hinweise exportieren und auf der anderen Website importieren.',
    },
  },
];

export const GUIDE_CATEGORIES = [
  'getting-started',
  'notifications',
  'settings',
  'troubleshooting',
  'embedding',
] as const;

export interface GuideQuery {
  search?: string;
  category?: string;
  tag?: string;
  page: number;
  per_page: number;
}

/** Parses the pass-through query parameters; returns problems for invalid ones. */
/** The query parameters parseGuideQuery reads. */
export const GUIDE_QUERY_KEYS = ['search', 's', 'q', 'category', 'tag', 'tags', 'page', 'per_page', 'limit'] as const;

export function parseGuideQuery(raw: Record<string, unknown>): { query: GuideQuery; problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  // Query values may be lists and maps (`tag[]=a`, `page[x]=1`); a map has no text.
  const scalar = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  const str = (k: string) => {
    const v = raw[k];
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v.trim();
    if (scalar(v)) return String(v);
    if (Array.isArray(v) && v.every(scalar)) return v.join(',');
    problems[k] = `${k} must be text`;
    return undefined;
  };
  const int = (k: string, def: number, min: number, max: number) => {
    const v = raw[k];
    if (v === undefined || v === '') return def;
    const n = scalar(v) ? Number(v) : NaN;
    if (!Number.isInteger(n) || n < min || n > max) {
      problems[k] = `${k} must be an integer between ${min} and ${max}`;
      return def;
    }
    return n;
  };
  const category = str('category');
  if (category && !(GUIDE_CATEGORIES as readonly string[]).includes(category))
    problems.category = `category must be one of ${GUIDE_CATEGORIES.join(', ')}`;
  const query: GuideQuery = {
    search: str('search') ?? str('s') ?? str('q'),
    category: category || undefined,
    tag: str('tag') ?? str('tags'),
    page: int('page', 1, 1, 1000),
    per_page: int('per_page', int('limit', 10, 1, 100), 1, 100),
  };
  return { query, problems };
}

export function fetchGuides(
  lang: Lang,
  q: GuideQuery,
  siteUrl: string,
): {
  guides: Record<string, unknown>[];
  total: number;
  total_pages: number;
  page: number;
  per_page: number;
  categories: readonly string[];
} {
  const needle = q.search?.toLowerCase();
  const tags = q.tag
    ? q.tag
        .split(',')
        .map((t) => t.trim().toLowerCase())
        .filter(Boolean)
    : [];
  const matched = GUIDES.filter((g) => {
    if (q.category && g.category !== q.category) return false;
    if (tags.length && !tags.some((t) => g.tags.includes(t))) return false;
    if (needle && !`${g.title[lang]} ${g.excerpt[lang]} ${g.tags.join(' ')}`.toLowerCase().includes(needle))
      return false;
    return true;
  });
  const start = (q.page - 1) * q.per_page;
  return {
    guides: matched.slice(start, start + q.per_page).map((g) => ({
      id: g.id,
      slug: g.slug,
      title: g.title[lang],
      excerpt: g.excerpt[lang],
      category: g.category,
      tags: g.tags,
      updated: g.updated,
      link: `${siteUrl}/${lang}/guides/${g.slug}`,
    })),
    total: matched.length,
    total_pages: Math.max(1, Math.ceil(matched.length / q.per_page)),
    page: q.page,
    per_page: q.per_page,
    categories: GUIDE_CATEGORIES,
  };
}
