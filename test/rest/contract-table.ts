// Every route of contract §4 with exactly its parameters, written once in the test suite's
// own compact form. The index tests compare the served index against this table.

type Spec = Record<string, unknown>;
export interface ExpectedEndpoint {
  methods: string[];
  args: Record<string, Spec>;
}
export interface ExpectedRoute {
  pattern: string;
  endpoints: ExpectedEndpoint[];
}

const str: Spec = { type: 'string' };
const int: Spec = { type: 'integer' };
const bool = (d: boolean): Spec => ({ type: 'boolean', default: d });
const arrOf = (type: string): Spec => ({ type: 'array', items: { type } });
const req = (spec: Spec): Spec => ({ ...spec, required: true });
/** Args whose type the contract leaves unspecified: only the presence and `required` are checked. */
export const LOOSE = '__loose';
const loose: Spec = { [LOOSE]: true };

const ID = '[a-zA-Z0-9_-]+';
const route = (pattern: string, ...endpoints: ExpectedEndpoint[]): ExpectedRoute => ({ pattern, endpoints });
const ep = (methods: string, args: Record<string, Spec> = {}): ExpectedEndpoint => ({
  methods: methods.split(','),
  args,
});
const nsIndex = (ns: string) =>
  route(`/${ns}`, ep('GET', { namespace: { default: ns }, context: { default: 'view' } }));

const eventFilters: Record<string, Spec> = {
  context: { type: 'string', default: 'view' },
  page: { type: 'integer', default: 1, minimum: 1 },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
  search: str,
  type: { type: 'string', default: 'overview', enum: ['overview', 'occasions'] },
  logRowID: int,
  occasionsID: str,
  occasionsCount: int,
  occasionsCountMaxReturn: int,
  include: { ...arrOf('integer'), default: null },
  max_id_first_page: int,
  since_id: int,
  since_date: { type: 'string', format: 'date-time' },
  date_from: str,
  date_to: str,
  dates: arrOf('string'),
  skip_count_query: bool(false),
  lastdays: int,
  months: arrOf('string'),
  loglevels: arrOf('string'),
  loggers: arrOf('string'),
  messages: arrOf('string'),
  users: arrOf('integer'),
  user: int,
  offset: int,
  include_sticky: bool(false),
  only_sticky: bool(false),
  initiator: loose,
  ip_address: str,
  context_filters: { type: 'object', [LOOSE]: true },
  metadata_search: str,
  ungrouped: bool(false),
  surrounding_event_id: int,
  surrounding_count: { type: 'integer', default: 5, minimum: 1, maximum: 50 },
  exclude_search: str,
  exclude_loglevels: arrOf('string'),
  exclude_loggers: arrOf('string'),
  exclude_messages: arrOf('string'),
  exclude_users: arrOf('integer'),
  exclude_user: int,
  exclude_initiator: loose,
};

const statsFilters: Record<string, Spec> = {
  context: str,
  page: { type: 'integer', default: 1, minimum: 1 },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 100 },
  search: str,
  date_from: int,
  date_to: int,
  limit: { type: 'integer', default: 50, minimum: 1, maximum: 100 },
  include_details: bool(false),
};

const stringFilters: Record<string, Spec> = {
  kind: { type: 'integer', default: null },
  type: str,
  source: { type: 'integer', default: null },
  domain: { type: 'string', default: null },
  translationPriority: { type: 'string', default: null },
  title: str,
  sourceLanguageCode: str,
  targetLanguageCode: str,
  translationStatuses: { default: [], [LOOSE]: true },
  limit: { type: 'integer', default: 10 },
  offset: { type: 'integer', default: 0 },
  sorting: { default: null, [LOOSE]: true },
};

export const CONTRACT_ROUTES: ExpectedRoute[] = [
  route('/', ep('GET', { context: { default: 'view' } })),
  route(
    '/batch/v1',
    ep('POST', {
      validation: { type: 'string', enum: ['require-all-validate', 'normal'], default: 'normal' },
      requests: { type: 'array', maxItems: 25, required: true, [LOOSE]: true },
    }),
  ),

  nsIndex('sched/v1'),
  route('/sched/v1/settings', ep('GET'), ep('POST')),
  route('/sched/v1/settings/schema', ep('GET')),
  route(
    `/sched/v1/settings/(?P<setting_id>${ID})`,
    ep('GET', { context: { default: 'view' } }),
    ep('POST,PUT,PATCH'),
    ep('DELETE', { force: { default: false } }),
  ),
  route('/sched/v1/notices', ep('GET')),
  route('/sched/v1/notices/schema', ep('GET')),
  route(
    `/sched/v1/notices/(?P<notice_id>${ID})`,
    ep('GET', { context: { default: 'view' } }),
    ep('POST,PUT,PATCH', { global: req({}) }),
    ep('DELETE', { global: req({}) }),
  ),
  route(`/sched/v1/notices/pinned/(?P<notice_id>${ID})`, ep('POST,PUT,PATCH')),
  route(`/sched/v1/notices/pinned/delete/(?P<notice_id>${ID})`, ep('POST,PUT,PATCH')),
  route('/sched/v1/notices-errors', ep('GET')),
  route('/sched/v1/templates/validate', ep('POST', { message: req(str) })),
  route('/sched/v1/notifications/preview', ep('POST', { template: req({}) })),
  route('/sched/v1/support_status', ep('GET')),
  route('/sched/v1/support_ticket', ep('POST')),
  route('/sched/v1/support_debug/wp', ep('GET')),
  route('/sched/v1/support_debug/wp/delete', ep('POST')),
  route('/sched/v1/support_debug/ssa', ep('GET')),
  route('/sched/v1/support_debug/ssa/delete', ep('POST')),
  route('/sched/v1/support_debug/logs', ep('GET')),
  route('/sched/v1/support/export', ep('GET')),
  route('/sched/v1/support/import', ep('POST')),
  route('/sched/v1/fetch-guides', ep('GET')),
  route('/sched/v1/user/check', ep('GET')),
  route('/sched/v1/embed_booking_app', ep('GET')),

  nsIndex('oembed/1.0'),
  route(
    '/oembed/1.0/embed',
    ep('GET', { url: req({ type: 'string', format: 'uri' }), format: { default: 'json' }, maxwidth: { default: 600 } }),
  ),
  route(
    '/oembed/1.0/proxy',
    ep('GET', {
      url: req({ type: 'string', format: 'uri' }),
      format: { type: 'string', default: 'json', enum: ['json', 'xml'] },
      maxwidth: { type: 'integer', default: 600 },
      maxheight: int,
      discover: bool(true),
    }),
  ),

  nsIndex('i18n/v1'),
  route('/i18n/v1/custom-xml-config', ep('GET'), ep('POST')),
  route('/i18n/v1/custom-xml-config/validate', ep('POST')),

  nsIndex('i18n/st/v1'),
  route(
    '/i18n/st/v1/strings/settings',
    ep('POST', {
      autoregisterType: { type: 'integer', default: 0 },
      shouldRegisterBackendStrings: { type: 'integer', default: 0 },
      setNoticeThatCachePluginCanBlockAutoregisterAsDismissed: { type: 'integer', default: 0 },
      setDetectStringsInJS: { type: 'integer', default: 0 },
    }),
    ep('GET'),
  ),
  route('/i18n/st/v1/strings/itemscount', ep('GET', stringFilters)),
  route('/i18n/st/v1/strings', ep('GET', stringFilters)),
  route('/i18n/st/v1/strings/filters', ep('GET')),
  route(
    '/i18n/st/v1/string-packages',
    ep('GET', {
      type: str,
      title: str,
      sourceLanguageCode: str,
      targetLanguageCode: str,
      translationStatuses: { default: [], [LOOSE]: true },
      limit: { type: 'integer', default: 10 },
      offset: { type: 'integer', default: 0 },
      sorting: { default: null, [LOOSE]: true },
    }),
  ),
  route('/i18n/st/v1/strings/processstringsqueue', ep('POST')),

  nsIndex('i18n/tm/v1'),
  route('/i18n/tm/v1/ate/jobs/store', ep('POST', { i18n_job_id: req(str), ate_job_data: req({ type: 'array' }) })),
  route('/i18n/tm/v1/xliff/fetch/(?P<job_id>\\d+)', ep('GET')),
  route('/i18n/tm/v1/ams/register_manager', ep('POST')),
  route('/i18n/tm/v1/ams/synchronize/translators', ep('GET')),
  route('/i18n/tm/v1/ams/synchronize/managers', ep('GET')),
  route('/i18n/tm/v1/ams/status', ep('GET')),
  route('/i18n/tm/v1/ams/console', ep('GET')),
  route('/i18n/tm/v1/ams/engines', ep('GET'), ep('POST')),
  route('/i18n/tm/v1/ate/jobs', ep('POST')),
  route('/i18n/tm/v1/ate/jobs/(?P<ate_job_id>\\d+)', ep('GET')),
  route(
    '/i18n/tm/v1/jobs',
    ep('GET', {
      local_job_ids: str,
      scope: str,
      id: int,
      title: str,
      source_language: str,
      target_language: str,
      status: str,
      needs_update: str,
      limit: int,
      offset: int,
      sorting: loose,
      translated_by: str,
      sent_from: str,
      sent_to: str,
      deadline_from: str,
      deadline_to: str,
    }),
  ),
  route('/i18n/tm/v1/jobs/assign', ep('POST', { jobId: req(loose), type: loose, translatorId: req(loose) })),

  nsIndex('legalx/v1'),

  nsIndex('sliderx'),
  route('/sliderx/sliders', ep('GET')),
  route(`/sliderx/sliders/(?P<slider>${ID})`, ep('GET')),
  route('/sliderx/sliders/slides/(?P<slide_id>\\d+)', ep('GET')),
  route('/sliderx/sliders/stream/(?P<slide_ids>[\\d,]+)', ep('GET')),
  route(`/sliderx/sliders/modal/(?P<slider>${ID})`, ep('GET')),

  nsIndex('history/v1'),
  route('/history/v1/email-report/preview/email', ep('POST,GET')),
  route('/history/v1/email-report/preview/html', ep('GET')),
  route(
    '/history/v1/events',
    ep('GET', eventFilters),
    ep('POST', {
      message: req(str),
      note: str,
      level: {
        type: 'string',
        default: 'info',
        enum: ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'],
      },
      date: { type: 'string', format: 'date-time' },
    }),
  ),
  route('/history/v1/events/has-updates', ep('GET', { ...eventFilters, since_id: req(int) })),
  route('/history/v1/events/(?P<event_id>\\d+)', ep('GET', { id: int })),
  route('/history/v1/events/(?P<event_id>\\d+)/stick', ep('POST', { id: int })),
  route('/history/v1/events/(?P<event_id>\\d+)/unstick', ep('POST', { id: int })),
  route('/history/v1/backfill-status', ep('GET')),
  route('/history/v1/search-options', ep('GET')),
  route('/history/v1/search-user', ep('GET')),
  ...[
    'summary',
    'users',
    'content',
    'media',
    'plugins',
    'core',
    'peak-days',
    'peak-times',
    'activity-overview',
    'notes',
  ].map((s) => route(`/history/v1/stats/${s}`, ep('GET', statsFilters))),
  route('/history/v1/support-info', ep('GET')),
  route('/history/v1/support-info/health-check', ep('GET')),
  route('/history/v1/users/(?P<user_id>\\d+)/card', ep('GET', { id: req(int) })),
  route(
    '/history/v1/initiators/(?P<initiator_type>[a-z_]+)/card',
    ep('GET', { type: req({ type: 'string', enum: ['cms', 'cms_cli', 'web_user', 'other'] }) }),
  ),

  ...[
    'i18n/ate/v1',
    'filex/v1',
    'filex/public/v1',
    'awx/instagram',
    'awx',
    'vendorx/installer/v1',
    'cms/v2',
    'cms-site-health/v1',
    'cms-block-editor/v1',
    'cms-abilities/v1',
  ].map(nsIndex),
];

/**
 * Parameters beyond the contract's that a route deliberately accepts, with the reason.
 * Anything else extra fails the index test.
 */
export const DOCUMENTED_EXTRA_ARGS: Record<string, string[]> = {
  // The reference's search-user takes the search text in `q` (history.md §5.2).
  '/history/v1/search-user GET': ['q'],
  // The contract lists none, yet the route needs one of them to name the jobs (issue 31).
  '/i18n/tm/v1/ate/jobs POST': ['jobs', 'job_ids', 'i18n_job_id'],
};

export const NAMESPACES_IN_ORDER = [
  'sched/v1',
  'oembed/1.0',
  'i18n/v1',
  'i18n/st/v1',
  'i18n/tm/v1',
  'legalx/v1',
  'sliderx',
  'history/v1',
  'i18n/ate/v1',
  'filex/v1',
  'filex/public/v1',
  'awx/instagram',
  'awx',
  'vendorx/installer/v1',
  'cms/v2',
  'cms-site-health/v1',
  'cms-block-editor/v1',
  'cms-abilities/v1',
];
