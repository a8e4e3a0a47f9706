// Fixture jobs for the i18n/tm/v1 tests: a small, fully known set inserted directly.
import type { Insertable } from 'kysely';
import { XMLParser } from 'fast-xml-parser';
import type { AppServices } from '../../src/site/services.ts';
import { utcNow } from '../../src/site/time.ts';
import { createUser, setUserStatus } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import type { AuthUser } from '../../src/auth/types.ts';
import type { TmJobFieldsTable, TmJobsTable } from '../../src/db/schema.ts';
import type { Caller } from '../../src/namespaces/i18n-tm/jobs.ts';

export interface Fixture {
  admin: AuthUser;
  editor: AuthUser;
  anna: AuthUser;
  ben: AuthUser;
  subscriber: AuthUser;
  disabled: AuthUser;
  jobs: Record<string, number>;
  batches: Record<string, number>;
}

let counter = 0;

async function user(app: AppServices, role: string, name: string): Promise<AuthUser> {
  const login = `${name.toLowerCase().replace(/\s+/g, '.')}-${process.pid}-${++counter}`;
  return toAuthUser(await createUser(app, { login, email: `${login}@example.test`, role, displayName: name }));
}

type JobInput = Partial<Insertable<TmJobsTable>> & { key: string; fields?: Partial<Insertable<TmJobFieldsTable>>[] };

export async function createFixture(app: AppServices): Promise<Fixture> {
  const admin = await user(app, 'administrator', 'Ada Admin');
  const editor = await user(app, 'editor', 'Emil Editor');
  const anna = await user(app, 'translator', 'Anna Becker');
  const ben = await user(app, 'translator', 'Ben Schulz');
  const subscriber = await user(app, 'subscriber', 'Sina Subscriber');
  const disabledRow = await user(app, 'translator', 'Dora Disabled');
  await setUserStatus(app, disabledRow.id, 'disabled');
  const disabled = disabledRow;

  const stamp = '2026-03-01 10:00:00';
  const b1 = await app.db
    .insertInto('tm_batches')
    .values({ name: 'Alpha batch', tp_id: null, created_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();
  const b2 = await app.db
    .insertInto('tm_batches')
    .values({ name: 'Beta batch', tp_id: 77, created_at: stamp })
    .returning('id')
    .executeTakeFirstOrThrow();

  const defs: JobInput[] = [
    {
      key: 'waiting',
      title: 'About us',
      status: 1,
      translator_id: null,
      batch_id: b1.id,
      sent_date: '2026-03-01 09:00:00',
      deadline_date: '2026-03-20',
      element_type: 'post_page',
      element_url: 'http://localhost:8080/en/about-us/',
    },
    {
      key: 'annaProgress',
      title: 'Partner program',
      status: 2,
      translator_id: anna.id,
      batch_id: b1.id,
      sent_date: '2026-03-02 09:00:00',
      deadline_date: '2026-03-10',
      note: 'Keep tier names in English.',
    },
    {
      key: 'benComplete',
      title: 'Contact 100% sure',
      status: 10,
      translator_id: ben.id,
      batch_id: b2.id,
      sent_date: '2026-03-03 09:00:00',
      review_status: 'ACCEPTED',
    },
    {
      key: 'annaOutdated',
      title: 'Gold tier news',
      status: 10,
      needs_update: 1,
      translator_id: anna.id,
      batch_id: b2.id,
      sent_date: '2026-03-04 23:30:00',
      review_status: 'ACCEPTED',
    },
    {
      key: 'review',
      title: 'Spring webinar',
      status: 10,
      review_status: 'NEEDS_REVIEW',
      automatic: 1,
      batch_id: b2.id,
      sent_date: '2026-03-05 09:00:00',
    },
    {
      key: 'basket',
      title: 'Imprint',
      status: 20,
      source_language: 'de',
      target_language: 'en',
      batch_id: b1.id,
      sent_date: '2026-03-06 09:00:00',
    },
    {
      key: 'retry',
      title: 'Privacy policy',
      status: 40,
      translator_id: anna.id,
      batch_id: b1.id,
      sent_date: '2026-03-07 09:00:00',
      deadline_date: '2026-04-01',
    },
    {
      key: 'remote',
      title: 'Terms',
      status: 4,
      translation_service: 'lingua-pro',
      tp_id: 991,
      ts_status: 'translation_ready',
      editor: 'none',
      batch_id: b2.id,
      sent_date: '2026-03-08 09:00:00',
    },
    { key: 'cancelled', title: 'Old landing', status: 0, batch_id: b1.id, sent_date: '2026-02-01 09:00:00' },
    {
      key: 'strings',
      title: 'Theme strings',
      type: 'st-batch_strings',
      element_type: 'st-batch_strings',
      status: 1,
      editor: 'classic',
      translator_id: ben.id,
      batch_id: b1.id,
      sent_date: '2026-03-09 09:00:00',
      element_url: null,
    },
    {
      key: 'package',
      title: 'Contact form',
      type: 'package',
      element_type: 'package_gravity_form',
      status: 2,
      translator_id: ben.id,
      batch_id: b2.id,
      sent_date: '2026-03-10 09:00:00',
      source_language: 'en',
      target_language: 'fr',
    },
    { key: 'empty', title: 'Empty job', status: 1, batch_id: b1.id, sent_date: '2026-03-11 09:00:00', fields: [] },
    { key: 'duplicate', title: 'Duplicated page', status: 9, batch_id: b1.id, sent_date: '2026-03-12 09:00:00' },
  ];
  const jobs: Record<string, number> = {};
  let element = 100;
  for (const d of defs) {
    const { key, fields, ...values } = d;
    const row = await app.db
      .insertInto('tm_jobs')
      .values({
        ...({
          type: 'post',
          element_id: ++element,
          element_type: 'post_post',
          element_url: `http://localhost:8080/en/${key}/`,
          source_language: 'en',
          target_language: 'de',
          needs_update: 0,
          review_status: null,
          translator_id: null,
          translation_service: 'local',
          tp_id: null,
          ts_status: null,
          editor: 'ate',
          editor_job_id: null,
          automatic: 0,
          note: null,
          deadline_date: null,
          created_at: stamp,
          updated_at: stamp,
        } as Insertable<TmJobsTable>),
        ...(values as Insertable<TmJobsTable>),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    jobs[key] = row.id;
    const fl = fields ?? [
      {
        field_id: 'title',
        label: 'Title',
        source: values.title as string,
        target: values.status === 10 ? `${values.title} (de)` : null,
        finished: values.status === 10 ? 1 : 0,
        wrap_tag: 'h1',
      },
      { field_id: 'body', label: 'Body', source: '<p>Body of the page & more.</p>', target: null, finished: 0 },
    ];
    if (fl.length) {
      await app.db
        .insertInto('tm_job_fields')
        .values(
          fl.map((x, position) => ({
            job_id: row.id,
            position,
            field_id: 'x',
            source: '',
            tm_suggestion: 0,
            finished: 0,
            ...x,
          })) as Insertable<TmJobFieldsTable>[],
        )
        .execute();
    }
  }
  return { admin, editor, anna, ben, subscriber, disabled, jobs, batches: { alpha: b1.id, beta: b2.id } };
}

/** RestError-like assertion helper: runs fn, expects a thrown error with code and status. */
export async function expectError(
  fn: () => Promise<unknown>,
  code: string,
  status: number,
): Promise<Record<string, unknown>> {
  try {
    await fn();
  } catch (err) {
    const e = err as { code?: string; status?: number; data?: Record<string, unknown>; message?: string };
    if (e.code !== code || e.status !== status) {
      throw new Error(`expected ${code}/${status}, got ${e.code}/${e.status}: ${e.message}`);
    }
    return e.data ?? {};
  }
  throw new Error(`expected ${code}/${status}, but nothing was thrown`);
}

/** Parses a base64 XLIFF document; attributes as `@name`, trans-units and phases always lists. */
export function parseXliff(base64: string): Record<string, any> {
  const xml = Buffer.from(base64, 'base64').toString('utf8');
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@',
    isArray: (name) => name === 'trans-unit' || name === 'phase',
  });
  return parser.parse(xml);
}

/** The caller of a write by `user`, as a REST request is (a Caller). */
export function callerOf(app: AppServices, user: AuthUser): Caller {
  return { app, user, lang: 'en', ip: '' };
}

/** Inserts a string job (one string, or a batch of them) assigned to `translator`, into German; its id. */
export async function insertStringJob(
  app: AppServices,
  translator: number,
  fields: { type: 'string'; stringId: number } | { type: 'st-batch_strings'; stringIds: number[] },
  status = 1,
): Promise<number> {
  const now = utcNow();
  const job = await app.db
    .insertInto('tm_jobs')
    .values({
      type: fields.type,
      element_id: fields.type === 'string' ? fields.stringId : 1,
      element_type: fields.type,
      title: 'Strings',
      element_url: null,
      source_language: 'en',
      target_language: 'de',
      status,
      needs_update: 0,
      review_status: null,
      translator_id: translator,
      batch_id: null,
      translation_service: 'local',
      tp_id: null,
      ts_status: null,
      editor: 'classic',
      editor_job_id: null,
      automatic: 0,
      note: null,
      sent_date: now,
      deadline_date: null,
      created_at: now,
      updated_at: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  if (fields.type === 'st-batch_strings') {
    await app.db
      .insertInto('tm_job_fields')
      .values(
        fields.stringIds.map((id, position) => ({
          job_id: job.id,
          position,
          field_id: `string-${id}`,
          label: null,
          source: 'x',
          target: null,
          tm_suggestion: 0,
          finished: 0,
          wrap_tag: null,
        })),
      )
      .execute();
  }
  return job.id;
}
