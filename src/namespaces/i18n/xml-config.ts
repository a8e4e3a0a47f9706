// The custom XML configuration of i18n/v1 (the reference's wpml-config.xml): storing it and
// applying it — which post types, taxonomies, custom fields, admin texts, shortcodes and blocks
// are translatable. Admin texts become strings of the registry. Checking it is xml-check.ts.
import type { AppServices } from '../../site/services.ts';
import { RestError, type Lang } from '../../rest/types.ts';
import { kvGet, kvGetJson, kvSet, registerString, translateString } from '../i18n-st/api.ts';
import { loggerEntry, recordWrite, type ActivityOrigin } from '../../site/activity.ts';
import { i18nLogger } from './logger.ts';
import { MSG } from './messages.ts';
import { checkContentParam, CODE, parseTree, type XNode } from './xml-check.ts';
import { WIDGET_SECTIONS } from './xml-rules.ts';

// ---------------------------------------------------------------------------------------
// The configuration's effect

export interface TranslatableItem {
  name: string;
  translate: number;
  displayAsTranslated: boolean;
  automatic: boolean;
}

export interface FieldRule {
  key: string;
  action: 'translate' | 'copy' | 'copy-once' | 'ignore';
  style: string | null;
  label: string | null;
  encoding: string | null;
}

export interface AppliedConfig {
  customTypes: TranslatableItem[];
  taxonomies: TranslatableItem[];
  customFields: FieldRule[];
  customTermFields: FieldRule[];
  /** Paths of keys inside serialized field values whose texts are labelled. */
  customFieldsTexts: string[][];
  /** Option paths made translatable: ['blogname'], ['my_option', 'title'], '*' wildcards. */
  adminTexts: string[][];
  shortcodes: {
    tag: string;
    type: string | null;
    attributes: { name: string; type: string | null; label: string | null }[];
  }[];
  gutenbergBlocks: { type: string; translate: boolean; xpaths: string[]; keys: string[] }[];
  widgets: {
    builder: string;
    name: string;
    fields: { field: string; type: string | null; editorType: string | null }[];
  }[];
  builtWithPageBuilder: string | null;
  /** Strings of the registry this configuration registered (admin texts). */
  registeredStrings: number[];
}

export const EMPTY_CONFIG: AppliedConfig = {
  customTypes: [],
  taxonomies: [],
  customFields: [],
  customTermFields: [],
  customFieldsTexts: [],
  adminTexts: [],
  shortcodes: [],
  gutenbergBlocks: [],
  widgets: [],
  builtWithPageBuilder: null,
  registeredStrings: [],
};

function keyPaths(nodes: XNode[], prefix: string[] = []): string[][] {
  const out: string[][] = [];
  for (const k of nodes.filter((n) => n.name === 'key')) {
    const path = [...prefix, k.attrs.name ?? ''];
    const nested = k.children.filter((c) => c.name === 'key');
    if (nested.length) out.push(...keyPaths(nested, path));
    else out.push(path);
  }
  return out;
}

function extractConfig(root: XNode): AppliedConfig {
  const cfg: AppliedConfig = structuredClone(EMPTY_CONFIG);
  const section = (name: string) => root.children.filter((c) => c.name === name).flatMap((c) => c.children);
  const item = (n: XNode): TranslatableItem => ({
    name: n.text.trim(),
    translate: Number(n.attrs.translate ?? '1'),
    displayAsTranslated: n.attrs['display-as-translated'] === '1' || n.attrs.translate === '2',
    automatic: n.attrs.automatic !== '0',
  });
  const field = (n: XNode): FieldRule => ({
    key: n.text.trim(),
    action: (n.attrs.action ?? 'ignore') as FieldRule['action'],
    style: n.attrs.style ?? null,
    label: n.attrs.label ?? null,
    encoding: n.attrs.encoding ?? null,
  });
  cfg.customTypes = section('custom-types')
    .map(item)
    .filter((i) => i.name);
  cfg.taxonomies = section('taxonomies')
    .map(item)
    .filter((i) => i.name);
  cfg.customFields = section('custom-fields')
    .map(field)
    .filter((f) => f.key);
  cfg.customTermFields = section('custom-term-fields')
    .map(field)
    .filter((f) => f.key);
  cfg.customFieldsTexts = keyPaths(section('custom-fields-texts'));
  cfg.adminTexts = keyPaths(section('admin-texts')).filter((p) => p.every((k) => k !== ''));
  cfg.shortcodes = section('shortcodes')
    .map((sc) => {
      const tag = sc.children.find((c) => c.name === 'tag');
      return {
        tag: tag?.text.trim() ?? '',
        type: tag?.attrs.type ?? null,
        attributes: sc.children
          .filter((c) => c.name === 'attributes')
          .flatMap((a) => a.children)
          .map((a) => ({ name: a.text.trim(), type: a.attrs.type ?? null, label: a.attrs.label ?? null })),
      };
    })
    .filter((s) => s.tag);
  cfg.gutenbergBlocks = section('gutenberg-blocks').map((b) => ({
    type: b.attrs.type ?? '',
    translate: b.attrs.translate !== '0',
    xpaths: b.children.filter((c) => c.name === 'xpath').map((c) => c.text.trim()),
    keys: keyPaths(b.children).map((p) => p.join('>')),
  }));
  for (const builder of WIDGET_SECTIONS) {
    for (const w of section(builder)) {
      const fields = w.children
        .filter((c) => c.name === 'fields' || c.name === 'fields-in-item')
        .flatMap((c) => c.children)
        .map((f) => ({ field: f.text.trim(), type: f.attrs.type ?? null, editorType: f.attrs.editor_type ?? null }));
      cfg.widgets.push({ builder: builder.replace(/-widgets$/, ''), name: w.attrs.name ?? '', fields });
    }
  }
  const pb = root.children.find((c) => c.name === 'built-with-page-builder');
  cfg.builtWithPageBuilder = pb ? pb.text.trim() : null;
  return cfg;
}

/** Registry coordinates of an admin text: domain `admin_texts_<option>`, name `[option][…]key`. */
export function adminTextKey(path: string[]): { domain: string; name: string } {
  const option = path[0]!;
  if (path.length === 1) return { domain: `admin_texts_${option}`, name: option };
  return { domain: `admin_texts_${option}`, name: `[${path.slice(0, -1).join('][')}]${path[path.length - 1]}` };
}

/** Expands `*` in option sub-keys against the stored value; yields [path, text] pairs. */
function resolveAdminTexts(app: Pick<AppServices, 'options'>, paths: string[][]): [string[], string][] {
  const out: [string[], string][] = [];
  const visit = (value: unknown, path: string[], rest: string[]) => {
    if (!rest.length) {
      if (typeof value === 'string' && value !== '') out.push([path, value]);
      else if (typeof value === 'number') out.push([path, String(value)]);
      return;
    }
    if (!value || typeof value !== 'object') return;
    const [head, ...tail] = rest;
    const obj = value as Record<string, unknown>;
    const keys = head!.includes('*')
      ? Object.keys(obj).filter((k) => wildcard(head!).test(k))
      : head! in obj
        ? [head!]
        : [];
    for (const k of keys) visit(obj[k], [...path, k], tail);
  };
  for (const p of paths) {
    if (p[0]!.includes('*')) continue; // option names are not enumerable here
    visit(app.options.get(p[0]!), [p[0]!], p.slice(1));
  }
  return out;
}

function wildcard(pattern: string): RegExp {
  return new RegExp(
    `^${pattern
      .split('*')
      .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*')}$`,
  );
}

const KEY_TEXT = 'custom_xml_config';
const KEY_APPLIED = 'custom_xml_applied';

/** GET custom-xml-config: the stored text ('' when none). */
export async function getCustomXml(app: Pick<AppServices, 'db'>): Promise<string> {
  return (await kvGet(app, KEY_TEXT)) ?? '';
}

/** The configuration currently in effect. */
export async function getAppliedConfig(app: Pick<AppServices, 'db'>): Promise<AppliedConfig> {
  return { ...EMPTY_CONFIG, ...(await kvGetJson<Partial<AppliedConfig>>(app, KEY_APPLIED, {})) };
}

export interface SaveResult {
  content: string;
  config: AppliedConfig;
}

/**
 * POST custom-xml-config: applies the configuration (applyCustomXml) and records the change in
 * the activity log.
 */
export async function saveCustomXml(caller: XmlCaller, content: string): Promise<SaveResult> {
  const saved = await applyCustomXml(caller.app, content, caller.lang);
  const { config } = saved;
  await recordWrite(
    caller.app,
    loggerEntry(i18nLogger, /\w/.test(content) ? 'custom_xml_config_updated' : 'custom_xml_config_cleared', {
      bytes: Buffer.byteLength(content, 'utf8'),
      custom_types: config.customTypes.length,
      taxonomies: config.taxonomies.length,
      custom_fields: config.customFields.length,
      admin_texts: config.adminTexts.length,
      registered_strings: config.registeredStrings.length,
    }),
    caller,
  );
  return saved;
}

/** Who saves a configuration, and where from: a RestRequest satisfies it. */
export interface XmlCaller extends ActivityOrigin {
  app: Pick<AppServices, 'db' | 'options' | 'activity' | 'log'>;
  lang: Lang;
}

/**
 * Stores the text and applies it, registering its admin texts. Refuses (400) content that does
 * not validate; empty content (no word characters) clears the configuration.
 */
export async function applyCustomXml(
  app: Pick<AppServices, 'db' | 'options'>,
  content: string,
  lang: Lang = 'en',
): Promise<SaveResult> {
  checkContentParam(content, lang);
  let config: AppliedConfig = structuredClone(EMPTY_CONFIG);
  if (/\w/.test(content)) {
    const { issues, roots } = parseTree(content, lang);
    if (issues.length) {
      const first = issues[0]!;
      const doctype = first.code === CODE.doctypeRefused;
      throw new RestError(
        doctype ? 'i18n_xml_doctype_forbidden' : 'i18n_xml_invalid',
        (doctype ? MSG.xmlDoctypeForbidden : MSG.xmlInvalid(first.message.trim(), first.line, first.column))[lang],
        400,
        { errors: issues },
      );
    }
    config = extractConfig(roots[0]!);
  }
  const ids: number[] = [];
  for (const [path, text] of resolveAdminTexts(app, config.adminTexts)) {
    const key = adminTextKey(path);
    const res = await registerString(app, { ...key, value: text, source: 1, type: 0, kind: 0 });
    ids.push(res.id);
  }
  config.registeredStrings = ids;
  await app.db.transaction().execute(async (tx) => {
    await kvSet(app, KEY_TEXT, content, tx);
    await kvSet(app, KEY_APPLIED, JSON.stringify(config), tx);
  });
  return { content, config };
}

/**
 * Registers (or updates) the admin texts of the configuration in effect from the current
 * option values: call after site options change, so the registry shows the new source texts
 * (complete translations of a changed text are marked "needs update").
 */
export async function syncAdminTexts(app: Pick<AppServices, 'db' | 'options'>): Promise<number> {
  const config = await getAppliedConfig(app);
  let n = 0;
  for (const [path, text] of resolveAdminTexts(app, config.adminTexts)) {
    await registerString(app, { ...adminTextKey(path), value: text, source: 1, type: 0, kind: 0 });
    n++;
  }
  return n;
}

function matches(pattern: string, name: string): boolean {
  return pattern.includes('*') ? wildcard(pattern).test(name) : pattern === name;
}

/** Translation mode of a post type per the configuration (0 no, 1 yes, 2 yes with fallback); null when not configured. */
export function postTypeMode(config: AppliedConfig, slug: string): number | null {
  return config.customTypes.find((t) => t.name === slug)?.translate ?? null;
}

export function taxonomyMode(config: AppliedConfig, slug: string): number | null {
  return config.taxonomies.find((t) => t.name === slug)?.translate ?? null;
}

/** What happens to a custom field on translation; null when not configured. */
export function customFieldAction(config: AppliedConfig, key: string): FieldRule['action'] | null {
  return config.customFields.find((f) => matches(f.key, key))?.action ?? null;
}

/** Whether an option (or a sub-key of it) is a translatable admin text. */
export function isAdminText(config: AppliedConfig, path: string[]): boolean {
  return config.adminTexts.some((p) => p.length === path.length && p.every((k, i) => matches(k, path[i]!)));
}

/** The value of a site option in `lang`, translated when it is a registered admin text. */
export async function translateOption(
  app: Pick<AppServices, 'db' | 'options'>,
  option: string,
  lang: string,
): Promise<unknown> {
  const value = app.options.get(option);
  if (typeof value !== 'string') return value;
  const translated = await translateString(app, adminTextKey([option]), lang);
  return translated ?? value;
}
