// Structure rules of the XML configuration: a hand-written subset of the reference's XSD
// (wpml-config.xsd), checked by xml-check.ts.

export interface ElementRule {
  /** Allowed attributes; a list restricts the values, null allows any value. */
  attrs?: Record<string, readonly string[] | null>;
  required?: string[];
  /** Allowed child elements; absent means none. */
  children?: string[];
  /** Whether non-whitespace text is allowed. */
  text?: boolean;
}

const B01 = ['0', '1'] as const;
const FIELD_TYPES = ['line', 'area', 'visual', 'link', 'media-url', 'media-ids', 'textarea'] as const;
export const WIDGET_SECTIONS = [
  'elementor-widgets',
  'beaver-builder-widgets',
  'cornerstone-widgets',
  'siteorigin-widgets',
];
const FIELD_ATTRS: ElementRule['attrs'] = {
  action: ['translate', 'copy', 'copy-once', 'ignore'],
  style: ['line', 'textarea', 'visual'],
  label: null,
  group: null,
  encoding: null,
  translate_link_target: B01,
  convert_to_sticky: B01,
};

export const ROOT_ELEMENT = 'wpml-config';
export const RULES: Record<string, ElementRule> = {
  [ROOT_ELEMENT]: {
    children: [
      'custom-types',
      'taxonomies',
      'custom-fields',
      'custom-term-fields',
      'custom-fields-texts',
      'admin-texts',
      'shortcodes',
      'gutenberg-blocks',
      ...WIDGET_SECTIONS,
      'language-switcher-settings',
      'built-with-page-builder',
    ],
  },
  'custom-types': { children: ['custom-type'] },
  'custom-type': { attrs: { translate: ['0', '1', '2'], 'display-as-translated': B01, automatic: B01 }, text: true },
  taxonomies: { children: ['taxonomy'] },
  taxonomy: { attrs: { translate: ['0', '1', '2'], 'display-as-translated': B01, automatic: B01 }, text: true },
  'custom-fields': { children: ['custom-field'] },
  'custom-field': { attrs: FIELD_ATTRS, required: ['action'], text: true },
  'custom-term-fields': { children: ['custom-term-field'] },
  'custom-term-field': { attrs: FIELD_ATTRS, required: ['action'], text: true },
  'custom-fields-texts': { children: ['key'] },
  'admin-texts': { children: ['key'] },
  key: {
    attrs: { name: null, 'search-method': ['wildcards', 'regex'], type: null, label: null },
    required: ['name'],
    children: ['key'],
    text: true,
  },
  shortcodes: { children: ['shortcode'] },
  shortcode: { children: ['tag', 'attributes'] },
  tag: {
    attrs: {
      encoding: null,
      'encoding-condition': null,
      type: FIELD_TYPES,
      'raw-html': B01,
      'ignore-content': B01,
      label: null,
    },
    text: true,
  },
  attributes: { children: ['attribute'] },
  attribute: { attrs: { type: FIELD_TYPES, encoding: null, label: null }, text: true },
  'gutenberg-blocks': { children: ['gutenberg-block'] },
  'gutenberg-block': {
    attrs: { type: null, translate: B01, label: null },
    required: ['type'],
    children: ['xpath', 'key'],
  },
  xpath: { attrs: { type: FIELD_TYPES, label: null, encoding: null }, text: true },
  widget: {
    attrs: { name: null },
    required: ['name'],
    children: ['conditions', 'fields', 'fields-in-item', 'integration-classes'],
  },
  conditions: { children: ['key'] },
  fields: { children: ['field'] },
  'fields-in-item': { attrs: { items_of: null }, required: ['items_of'], children: ['field'] },
  field: {
    attrs: { type: null, editor_type: ['LINE', 'AREA', 'VISUAL', 'LINK'], key_of: null, field_id: null },
    text: true,
  },
  'integration-classes': { children: ['integration-class'] },
  'integration-class': { text: true },
  'language-switcher-settings': { children: ['key'] },
  'built-with-page-builder': { text: true },
};
for (const s of WIDGET_SECTIONS) RULES[s] = { children: ['widget'] };
