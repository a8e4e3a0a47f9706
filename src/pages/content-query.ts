// The list query of pages and posts (cms/v2's collections): the filters, the orders and one
// page of the result with the total count, in one statement each.
import type { AppServices } from '../site/services.ts';
import type { Lang } from '../rest/types.ts';
import { likeContains } from '../db/like.ts';
import { sql, type Expression, type SqlBool } from 'kysely';
import { fromRow, type ContentItem, type ContentRow, type ContentStatus, type ContentType } from './content-item.ts';

export type ContentOrderBy =
  | 'author'
  | 'date'
  | 'id'
  | 'include'
  | 'modified'
  | 'parent'
  | 'relevance'
  | 'slug'
  | 'include_slugs'
  | 'title'
  | 'menu_order';

export interface ContentQuery {
  type: ContentType;
  statuses: readonly ContentStatus[];
  /**
   * Which items that are not published the caller may see: every one (`'all'`), those of one
   * author (their own), or none. Published items are always visible.
   */
  unpublishedOf: 'all' | { authorId: number } | null;
  lang?: Lang;
  search?: string;
  authors?: readonly number[];
  authorsExclude?: readonly number[];
  /** 0 stands for "no parent". */
  parents?: readonly number[];
  parentsExclude?: readonly number[];
  include?: readonly number[];
  exclude?: readonly number[];
  slugs?: readonly string[];
  menuOrder?: number;
  /** UTC bounds of the publication date, exclusive as the reference's `after`/`before`. */
  after?: string;
  before?: string;
  modifiedAfter?: string;
  modifiedBefore?: string;
  orderby: ContentOrderBy;
  order: 'asc' | 'desc';
  offset: number;
  limit: number;
}

/** One page of pages or posts matching a query, and how many match in all. */
export async function queryContent(
  app: AppServices,
  q: ContentQuery,
): Promise<{ items: ContentItem[]; total: number }> {
  const conditions = (eb: any): Expression<SqlBool> => {
    const and: Expression<SqlBool>[] = [eb('type', '=', q.type)];
    if (q.statuses.length) and.push(eb('status', 'in', q.statuses));
    const published = eb('status', '=', 'publish');
    if (q.unpublishedOf === null) and.push(published);
    else if (q.unpublishedOf !== 'all') and.push(eb.or([published, eb('author_id', '=', q.unpublishedOf.authorId)]));
    if (q.lang) and.push(eb('lang', '=', q.lang));
    if (q.search) {
      and.push(
        eb.or([
          likeContains(app.dialect, sql.ref('title'), q.search, true),
          likeContains(app.dialect, sql.ref('content'), q.search, true),
          likeContains(app.dialect, sql.ref('excerpt'), q.search, true),
        ]),
      );
    }
    if (q.authors?.length) and.push(eb('author_id', 'in', q.authors));
    if (q.authorsExclude?.length)
      and.push(eb.or([eb('author_id', 'is', null), eb('author_id', 'not in', q.authorsExclude)]));
    if (q.parents?.length) {
      const ids = q.parents.filter((p) => p !== 0);
      const top = q.parents.includes(0);
      and.push(
        eb.or([...(ids.length ? [eb('parent_id', 'in', ids)] : []), ...(top ? [eb('parent_id', 'is', null)] : [])]),
      );
    }
    if (q.parentsExclude?.length) {
      const ids = q.parentsExclude.filter((p) => p !== 0);
      if (ids.length) and.push(eb.or([eb('parent_id', 'is', null), eb('parent_id', 'not in', ids)]));
      if (q.parentsExclude.includes(0)) and.push(eb('parent_id', 'is not', null));
    }
    if (q.include?.length) and.push(eb('id', 'in', q.include));
    if (q.exclude?.length) and.push(eb('id', 'not in', q.exclude));
    if (q.slugs?.length) and.push(eb('slug', 'in', q.slugs));
    if (q.menuOrder !== undefined) and.push(eb('menu_order', '=', q.menuOrder));
    if (q.after) and.push(eb('created_at', '>', q.after));
    if (q.before) and.push(eb('created_at', '<', q.before));
    if (q.modifiedAfter) and.push(eb('modified_at', '>', q.modifiedAfter));
    if (q.modifiedBefore) and.push(eb('modified_at', '<', q.modifiedBefore));
    return eb.and(and);
  };
  const counted = await app.db
    .selectFrom('posts')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where(conditions)
    .executeTakeFirstOrThrow();
  const dir = q.order;
  let list = app.db.selectFrom('posts').selectAll().where(conditions);
  const byPosition = (column: 'id' | 'slug', values: readonly (number | string)[]) =>
    sql`case ${sql.join(
      values.map((v, i) => sql`when ${sql.ref(column)} = ${v} then ${i}`),
      sql` `,
    )} else ${values.length} end`;
  switch (q.orderby) {
    case 'include':
      list = q.include?.length ? list.orderBy(byPosition('id', q.include), dir) : list.orderBy('created_at', dir);
      break;
    case 'include_slugs':
      list = q.slugs?.length ? list.orderBy(byPosition('slug', q.slugs), dir) : list.orderBy('created_at', dir);
      break;
    case 'relevance':
      // The reference ranks a match in the title above one in the text only.
      list = list
        .orderBy(
          sql`case when ${likeContains(app.dialect, sql.ref('title'), q.search ?? '', true)} then 0 else 1 end`,
          dir === 'desc' ? 'asc' : 'desc',
        )
        .orderBy('created_at', 'desc');
      break;
    default:
      list = list.orderBy(
        (
          {
            author: 'author_id',
            date: 'created_at',
            id: 'id',
            modified: 'modified_at',
            parent: 'parent_id',
            slug: 'slug',
            title: 'title',
            menu_order: 'menu_order',
          } as const
        )[q.orderby],
        dir,
      );
  }
  const rows = (await list.orderBy('id', dir).limit(q.limit).offset(q.offset).execute()) as ContentRow[];
  return { items: rows.map(fromRow), total: Number(counted.n) };
}
