// cms/v2: the site's pages and posts with the arguments, fields and rules of the reference's
// wp/v2 pages and posts routes, so that a WordPress client's wp.pages() and wp.posts() work.
// Both types share one declaration; pages add their hierarchy (parent, menu_order).
import { custom, endpoint, EDITABLE, l, namespace, restError, route } from '../../rest/define.ts';
import { RestError, type Args, type RouteDef } from '../../rest/types.ts';
import { MAX_DB_INT, MAX_LIST_ITEMS } from '../../db/limits.ts';
import { CONTENT_STATUSES, type ContentType } from '../../pages/api.ts';
import { checkDateBound } from './dates.ts';
import { MSG } from './messages.ts';
import { CAPABILITIES } from './permissions.ts';
import { REST_BASE, type Context } from './present.ts';
import {
  createItem,
  deleteItem,
  getItem,
  itemPermission,
  listItems,
  rawText,
  readPermission,
  updateItem,
  type ListParams,
  type WriteParams,
} from './service.ts';

const CONTEXT = {
  description: l(
    'Scope under which the request is made; determines fields present in response.',
    'Bereich, in dem die Anfrage gestellt wird; bestimmt die Felder der Antwort.',
  ),
  type: 'string',
  enum: ['view', 'embed', 'edit'],
  default: 'view',
} as const;

/** Ids as the databases hold them (int4), at most as many as one statement binds. */
const DB_ID = { type: 'integer', minimum: 0, maximum: MAX_DB_INT } as const;
const idList = (en: string, de: string) =>
  ({ description: l(en, de), type: 'array', items: DB_ID, maxItems: MAX_LIST_ITEMS, default: [] }) as const;
const MENU_ORDER = { type: 'integer', minimum: -MAX_DB_INT, maximum: MAX_DB_INT } as const;
/** A date bound of the lists; checked here so that a bad one is the pipeline's invalid-param error. */
const dateArg = (en: string, de: string) =>
  ({ description: l(en, de), type: 'string', format: 'date-time', validate: checkDateBound }) as const;
const LANG = {
  description: l('Language version (en or de).', 'Sprachversion (en oder de).'),
  type: 'string',
  enum: ['en', 'de'],
} as const;

const ORDERBY = [
  'author',
  'date',
  'id',
  'include',
  'modified',
  'parent',
  'relevance',
  'slug',
  'include_slugs',
  'title',
] as const;

function collectionArgs(type: ContentType): Args {
  const args: Args = {
    context: CONTEXT,
    page: {
      description: l('Current page of the collection.', 'Aktuelle Seite der Sammlung.'),
      type: 'integer',
      default: 1,
      minimum: 1,
    },
    per_page: {
      description: l(
        'Maximum number of items to be returned in result set.',
        'Höchstzahl der Einträge in der Ergebnismenge.',
      ),
      type: 'integer',
      default: 10,
      minimum: 1,
      maximum: 100,
    },
    search: {
      description: l(
        'Limit results to those matching a string.',
        'Ergebnisse auf solche beschränken, die eine Zeichenkette enthalten.',
      ),
      type: 'string',
    },
    after: dateArg(
      'Limit response to posts published after a given ISO8601 compliant date.',
      'Antwort auf Einträge beschränken, die nach einem ISO-8601-Datum veröffentlicht wurden.',
    ),
    modified_after: dateArg(
      'Limit response to posts modified after a given ISO8601 compliant date.',
      'Antwort auf Einträge beschränken, die nach einem ISO-8601-Datum geändert wurden.',
    ),
    author: idList(
      'Limit result set to posts assigned to specific authors.',
      'Ergebnismenge auf Einträge bestimmter Autoren beschränken.',
    ),
    author_exclude: idList(
      'Ensure result set excludes posts assigned to specific authors.',
      'Einträge bestimmter Autoren aus der Ergebnismenge ausschließen.',
    ),
    before: dateArg(
      'Limit response to posts published before a given ISO8601 compliant date.',
      'Antwort auf Einträge beschränken, die vor einem ISO-8601-Datum veröffentlicht wurden.',
    ),
    modified_before: dateArg(
      'Limit response to posts modified before a given ISO8601 compliant date.',
      'Antwort auf Einträge beschränken, die vor einem ISO-8601-Datum geändert wurden.',
    ),
    exclude: idList('Ensure result set excludes specific IDs.', 'Bestimmte IDs aus der Ergebnismenge ausschließen.'),
    include: idList('Limit result set to specific IDs.', 'Ergebnismenge auf bestimmte IDs beschränken.'),
    offset: {
      description: l(
        'Offset the result set by a specific number of items.',
        'Ergebnismenge um eine bestimmte Anzahl von Einträgen versetzen.',
      ),
      type: 'integer',
      minimum: 0,
    },
    order: {
      description: l('Order sort attribute ascending or descending.', 'Sortierung aufsteigend oder absteigend.'),
      type: 'string',
      enum: ['asc', 'desc'],
      default: 'desc',
    },
    orderby: {
      description: l('Sort collection by post attribute.', 'Sammlung nach einem Attribut des Eintrags sortieren.'),
      type: 'string',
      enum: type === 'page' ? [...ORDERBY, 'menu_order'] : ORDERBY,
      default: 'date',
    },
    slug: {
      description: l(
        'Limit result set to posts with one or more specific slugs.',
        'Ergebnismenge auf Einträge mit bestimmten Slugs beschränken.',
      ),
      type: 'array',
      items: { type: 'string' },
      maxItems: MAX_LIST_ITEMS,
    },
    status: {
      description: l(
        'Limit result set to posts assigned one or more statuses.',
        'Ergebnismenge auf Einträge mit bestimmten Status beschränken.',
      ),
      type: 'array',
      items: { type: 'string', enum: ['publish', 'draft', 'pending', 'private', 'trash', 'any'] },
      maxItems: MAX_LIST_ITEMS,
      default: ['publish'],
      // The reference's sanitize_post_statuses: other statuses than publish need edit rights.
      validate: (value, req) => {
        const statuses = value as string[];
        if (statuses.every((s) => s === 'publish') || req.user?.can(CAPABILITIES[type].edit)) return true;
        return restErrorStatus(req.user !== null, req.lang);
      },
    },
    lang: {
      ...LANG,
      description: l(
        'Limit result set to one language version (en or de); all languages when absent.',
        'Ergebnismenge auf eine Sprachversion beschränken (en oder de); ohne Angabe alle Sprachen.',
      ),
    },
  };
  if (type === 'page') {
    args.menu_order = {
      description: l(
        'Limit result set to posts with a specific menu_order value.',
        'Ergebnismenge auf Einträge mit einem bestimmten menu_order-Wert beschränken.',
      ),
      ...MENU_ORDER,
    };
    args.parent = idList(
      'Limit result set to items with particular parent IDs.',
      'Ergebnismenge auf Einträge mit bestimmten Eltern-IDs beschränken.',
    );
    args.parent_exclude = idList(
      'Limit result set to all items except those of a particular parent ID.',
      'Ergebnismenge auf alle Einträge außer denen bestimmter Eltern-IDs beschränken.',
    );
  }
  return args;
}

/** The reference's rest_forbidden_status, a detail of the 400 for the `status` argument. */
function restErrorStatus(loggedIn: boolean, lang: 'en' | 'de'): RestError {
  const status = loggedIn ? 403 : 401;
  return restError({ lang }, 'rest_forbidden_status', MSG.statusForbidden, status, { status });
}

const textArg = (en: string, de: string) =>
  ({ description: l(en, de), type: ['string', 'object'], sanitize: rawText }) as const;

function itemArgs(type: ContentType): Args {
  const args: Args = {
    slug: {
      description: l(
        'An alphanumeric identifier for the post unique to its type.',
        'Eine alphanumerische Kennung des Eintrags, eindeutig für seinen Typ.',
      ),
      type: 'string',
    },
    status: {
      description: l('A named status for the post.', 'Ein benannter Status des Eintrags.'),
      type: 'string',
      enum: CONTENT_STATUSES,
    },
    title: textArg('The title for the post (a string or {raw}).', 'Der Titel des Eintrags (Zeichenkette oder {raw}).'),
    content: textArg(
      'The content for the post: plain text, blank lines between paragraphs (a string or {raw}).',
      'Der Inhalt des Eintrags: reiner Text, Leerzeilen zwischen Absätzen (Zeichenkette oder {raw}).',
    ),
    excerpt: textArg(
      'The excerpt for the post (a string or {raw}).',
      'Der Auszug des Eintrags (Zeichenkette oder {raw}).',
    ),
    author: {
      description: l('The ID for the author of the post.', 'Die ID des Autors des Eintrags.'),
      ...DB_ID,
      minimum: 1,
    },
    lang: {
      ...LANG,
      description: l(
        "Language version of the post (en or de); on creation the root's language when absent.",
        'Sprachversion des Eintrags (en oder de); beim Anlegen ohne Angabe die Sprache der Wurzel.',
      ),
    },
    translations: {
      description: l(
        'The linked language versions, {en: id, de: id}; set on creation to make the new item the translation of an existing one.',
        'Die verknüpften Sprachversionen, {en: id, de: id}; beim Anlegen angegeben, wird der neue Eintrag zur Übersetzung eines bestehenden.',
      ),
      type: 'object',
      properties: { en: { ...DB_ID, minimum: 1 }, de: { ...DB_ID, minimum: 1 } },
      additionalProperties: false,
    },
  };
  if (type === 'page') {
    args.parent = {
      description: l(
        'The ID for the parent of the post (0 for none).',
        'Die ID des übergeordneten Eintrags (0 für keinen).',
      ),
      ...DB_ID,
    };
    args.menu_order = {
      description: l(
        'The order of the post in relation to other posts.',
        'Die Reihenfolge des Eintrags im Verhältnis zu anderen.',
      ),
      ...MENU_ORDER,
    };
  }
  return args;
}

const ID_ARG = {
  id: { description: l('Unique identifier for the post.', 'Eindeutige Kennung des Eintrags.'), type: 'integer' },
} as const;

function contentRoutes(type: ContentType): RouteDef[] {
  const base = `/${REST_BASE[type]}`;
  const caps = CAPABILITIES[type];
  const label = type === 'page' ? 'pages' : 'posts';
  return [
    route(base, [
      endpoint('GET', {
        args: collectionArgs(type),
        permission: custom(
          l(
            `public; unpublished ${label} and context=edit need ${caps.edit}`,
            `öffentlich; unveröffentlichte Einträge und context=edit erfordern ${caps.edit}`,
          ),
          (req) =>
            req.params.context !== 'edit' ||
            !!req.user?.can(caps.edit) ||
            restError(req, 'rest_forbidden_context', MSG.cannotEditInType, req.user ? 403 : 401),
        ),
        returnsList: true,
        handler: (req) => listItems(req, type, req.params as unknown as ListParams),
      }),
      endpoint('POST', {
        args: itemArgs(type),
        permission: custom(
          l(`${caps.edit}; publishing ${caps.publish}`, `${caps.edit}; Veröffentlichen ${caps.publish}`),
          (req) => !!req.user?.can(caps.edit),
          caps.edit,
        ),
        forbiddenCode: 'rest_cannot_create',
        forbiddenMessage: MSG.cannotCreateAsUser,
        handler: (req) => createItem(req, type, req.params as WriteParams),
      }),
    ]),
    route(`${base}/(?P<id>[\\d]+)`, [
      endpoint('GET', {
        args: { ...ID_ARG, context: CONTEXT },
        permission: custom(
          l(
            `public when published, else edit rights on it (${caps.edit})`,
            `öffentlich, wenn veröffentlicht, sonst Bearbeitungsrechte daran (${caps.edit})`,
          ),
          (req) => readPermission(req, type),
        ),
        handler: (req) => getItem(req, type, req.params.context as Context),
      }),
      endpoint(EDITABLE, {
        args: { ...ID_ARG, ...itemArgs(type) },
        permission: custom(
          l(
            `${caps.edit} for own, ${caps.editOthers} for others' (${caps.editPublished} once published)`,
            `${caps.edit} für eigene, ${caps.editOthers} für fremde (${caps.editPublished} nach Veröffentlichung)`,
          ),
          (req) => itemPermission(req, type, 'edit'),
          caps.edit,
        ),
        handler: (req) => updateItem(req, type, req.params as WriteParams),
      }),
      endpoint('DELETE', {
        args: {
          ...ID_ARG,
          force: {
            description: l(
              'Whether to bypass Trash and force deletion.',
              'Ob der Papierkorb umgangen und endgültig gelöscht wird.',
            ),
            type: 'boolean',
            default: false,
          },
        },
        permission: custom(
          l(
            `${caps.delete} for own, ${caps.deleteOthers} for others'`,
            `${caps.delete} für eigene, ${caps.deleteOthers} für fremde`,
          ),
          (req) => itemPermission(req, type, 'delete'),
          caps.delete,
        ),
        handler: (req) => deleteItem(req, type, req.params.force),
      }),
    ]),
  ];
}

export const cmsNamespace = namespace('cms/v2', [...contentRoutes('page'), ...contentRoutes('post')]);
