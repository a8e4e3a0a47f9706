// Demo content of translation management, and a bulk generator for the benchmark.
import type { Insertable } from 'kysely';
import type { AppServices } from '../../site/services.ts';
import { createUser } from '../../auth/users.ts';
import { findUserByLogin } from '../../auth/user-rows.ts';
import type { TmJobFieldsTable, TmJobsTable } from '../../db/schema.ts';
import { analyzeAfterBulkLoad } from '../../db/index.ts';
import { utcNow, formatUtc } from '../../site/time.ts';
import { STATUS } from './model.ts';

const DEMO_TRANSLATORS = [
  { login: 'translator-anna', displayName: 'Anna Becker' },
  { login: 'translator-ben', displayName: 'Ben Schulz' },
];

/** The demo translators (created when missing), plus `demo-translator` if the site has one. */
export async function ensureDemoTranslators(app: AppServices): Promise<number[]> {
  const ids: number[] = [];
  for (const t of DEMO_TRANSLATORS) {
    const existing = await findUserByLogin(app, t.login);
    const row =
      existing ??
      (await createUser(app, {
        login: t.login,
        email: `${t.login}@example.com`,
        role: 'translator',
        displayName: t.displayName,
      }));
    ids.push(row.id);
  }
  const tom = await findUserByLogin(app, 'demo-translator');
  if (tom) ids.push(tom.id);
  return ids;
}

type FieldSeed = Omit<Insertable<TmJobFieldsTable>, 'job_id' | 'position'>;
type JobSeed = Omit<
  Insertable<TmJobsTable>,
  'batch_id' | 'created_at' | 'updated_at' | 'sent_date' | 'translator_id' | 'translation_service'
> & {
  translation_service?: string;
  batch: number;
  translator: number | null;
  sentDaysAgo: number;
  fields: FieldSeed[];
};

function daysAgo(days: number, base = Date.now()): string {
  return formatUtc(new Date(base - days * 86_400_000));
}

function dayFromNow(days: number, base = Date.now()): string {
  return formatUtc(new Date(base + days * 86_400_000)).slice(0, 10);
}

const f = (
  field_id: string,
  label: string,
  source: string,
  target: string | null = null,
  extra: Partial<FieldSeed> = {},
): FieldSeed => ({
  field_id,
  label,
  source,
  target,
  finished: target !== null ? 1 : 0,
  tm_suggestion: 0,
  wrap_tag: null,
  ...extra,
});

function demoJobs(site: string): JobSeed[] {
  const post = (id: number, type: string, slug: string) => ({
    element_id: id,
    element_type: `post_${type}`,
    element_url: `${site}/en/${slug}/`,
  });
  return [
    {
      type: 'post',
      ...post(12, 'page', 'about-us'),
      title: 'About us',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.COMPLETE,
      needs_update: 0,
      review_status: 'ACCEPTED',
      batch: 0,
      translator: 0,
      sentDaysAgo: 40,
      editor: 'ate',
      automatic: 0,
      deadline_date: null,
      note: null,
      fields: [
        f('title', 'Title', 'About us', 'Über uns', { wrap_tag: 'h1' }),
        f('body', 'Body', '<p>We connect partners across Europe.</p>', '<p>Wir verbinden Partner in ganz Europa.</p>'),
      ],
    },
    {
      type: 'post',
      ...post(14, 'page', 'partner-program'),
      title: 'Partner program',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.IN_PROGRESS,
      needs_update: 0,
      review_status: null,
      batch: 0,
      translator: 0,
      sentDaysAgo: 6,
      editor: 'ate',
      automatic: 0,
      deadline_date: 'in:5',
      note: 'Keep the tier names (Silver, Gold, Platinum) in English.',
      fields: [
        f('title', 'Title', 'Partner program', 'Partnerprogramm', { wrap_tag: 'h1' }),
        f('body', 'Body', '<p>Join our partner program and grow with us.</p>[partner_tiers level="all"]'),
        f('excerpt', 'Excerpt', 'Three tiers, one goal.'),
      ],
    },
    {
      type: 'post',
      ...post(15, 'page', 'contact'),
      title: 'Contact',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.WAITING_FOR_TRANSLATOR,
      needs_update: 0,
      review_status: null,
      batch: 1,
      translator: null,
      sentDaysAgo: 2,
      editor: 'ate',
      automatic: 0,
      deadline_date: 'in:14',
      note: null,
      fields: [
        f('title', 'Title', 'Contact', null, { wrap_tag: 'h1' }),
        f('body', 'Body', '<p>Write to us: partners@example.com</p>'),
      ],
    },
    {
      type: 'post',
      ...post(21, 'post', 'new-gold-tier'),
      title: 'New Gold tier announced',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.COMPLETE,
      needs_update: 1,
      review_status: 'ACCEPTED',
      batch: 1,
      translator: 1,
      sentDaysAgo: 20,
      editor: 'ate',
      automatic: 0,
      deadline_date: null,
      note: null,
      fields: [
        f('title', 'Title', 'New Gold tier announced', 'Neue Gold-Stufe angekündigt', { wrap_tag: 'h2' }),
        f(
          'body',
          'Body',
          '<p>Gold partners now get priority support & quarterly reviews.</p>',
          '<p>Gold-Partner erhalten jetzt bevorzugten Support.</p>',
        ),
      ],
    },
    {
      type: 'post',
      ...post(22, 'post', 'spring-webinar'),
      title: 'Spring webinar series',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.COMPLETE,
      needs_update: 0,
      review_status: 'NEEDS_REVIEW',
      batch: 1,
      translator: null,
      sentDaysAgo: 3,
      editor: 'ate',
      automatic: 1,
      deadline_date: null,
      note: null,
      fields: [
        f('title', 'Title', 'Spring webinar series', 'Frühjahrs-Webinarreihe', { tm_suggestion: 1 }),
        f(
          'body',
          'Body',
          '<p>Four sessions on growing your business.</p>',
          '<p>Vier Sitzungen zum Wachstum Ihres Unternehmens.</p>',
          { tm_suggestion: 1 },
        ),
      ],
    },
    {
      type: 'post',
      ...post(30, 'page', 'imprint'),
      title: 'Imprint',
      source_language: 'de',
      target_language: 'en',
      status: STATUS.IN_BASKET,
      needs_update: 0,
      review_status: null,
      batch: 2,
      translator: null,
      sentDaysAgo: 0,
      editor: 'ate',
      automatic: 0,
      deadline_date: null,
      note: null,
      fields: [f('title', 'Titel', 'Impressum'), f('body', 'Inhalt', '<p>Angaben gemäß § 5 TMG</p>')],
    },
    {
      type: 'post',
      ...post(31, 'page', 'privacy-policy'),
      title: 'Privacy policy',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.ATE_NEEDS_RETRY,
      needs_update: 0,
      review_status: null,
      batch: 2,
      translator: 1,
      sentDaysAgo: 1,
      editor: 'ate',
      automatic: 0,
      deadline_date: 'in:3',
      note: null,
      fields: [
        f('title', 'Title', 'Privacy policy'),
        f('body', 'Body', '<p>We process personal data only as described here.</p>'),
      ],
    },
    {
      type: 'post',
      ...post(32, 'page', 'terms'),
      title: 'Terms and conditions',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.TRANSLATION_READY_TO_DOWNLOAD,
      needs_update: 0,
      review_status: null,
      batch: 2,
      translator: null,
      sentDaysAgo: 9,
      editor: 'none',
      automatic: 0,
      deadline_date: 'in:1',
      note: null,
      translation_service: 'lingua-pro',
      tp_id: 88412,
      ts_status: 'translation_ready',
      fields: [
        f('title', 'Title', 'Terms and conditions'),
        f('body', 'Body', '<p>These terms apply to all partners.</p>'),
      ],
    },
    {
      type: 'post',
      ...post(33, 'page', 'old-landing'),
      title: 'Old landing page',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.NOT_TRANSLATED,
      needs_update: 0,
      review_status: null,
      batch: 0,
      translator: null,
      sentDaysAgo: 60,
      editor: 'ate',
      automatic: 0,
      deadline_date: null,
      note: null,
      fields: [f('title', 'Title', 'Welcome')],
    },
    {
      type: 'st-batch_strings',
      element_id: 1,
      element_type: 'st-batch_strings',
      element_url: null,
      title: 'Strings: theme buttons',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.WAITING_FOR_TRANSLATOR,
      needs_update: 0,
      review_status: null,
      batch: 3,
      translator: 0,
      sentDaysAgo: 4,
      editor: 'classic',
      automatic: 0,
      deadline_date: null,
      note: null,
      fields: [
        f('string-101', 'Read more', 'Read more'),
        f('string-102', 'Become a partner', 'Become a partner'),
        f('string-103', 'Log in', 'Log in', 'Anmelden'),
      ],
    },
    {
      type: 'package',
      element_id: 7,
      element_type: 'package_gravity_form',
      element_url: `${site}/cms-admin/admin.php?page=gf_edit_forms&id=7`,
      title: 'Contact form',
      source_language: 'en',
      target_language: 'de',
      status: STATUS.IN_PROGRESS,
      needs_update: 0,
      review_status: null,
      batch: 3,
      translator: 1,
      sentDaysAgo: 5,
      editor: 'ate',
      automatic: 0,
      deadline_date: 'in:7',
      note: null,
      fields: [
        f('package-string-7-name', 'Name', 'Your name', 'Ihr Name'),
        f('package-string-7-message', 'Message', 'Your message'),
        f('package-string-7-submit', 'Submit', 'Send message'),
      ],
    },
  ];
}

const DEMO_BATCHES = ['Partner portal launch', 'Spring campaign 2026', 'Legal pages', 'Strings and forms'];

/**
 * Demo translation jobs (and demo translators). Does nothing when the site already has
 * translation jobs. Returns the number of jobs created.
 */
export async function seedDemo(app: AppServices): Promise<number> {
  const any = await app.db.selectFrom('tm_jobs').select('id').limit(1).executeTakeFirst();
  if (any) return 0;
  const translators = await ensureDemoTranslators(app);
  const now = Date.now();
  const createdAt = utcNow();
  const jobs = demoJobs(app.config.siteUrl);
  await app.db.transaction().execute(async (tx) => {
    const batchIds: number[] = [];
    for (const [i, name] of DEMO_BATCHES.entries()) {
      const b = await tx
        .insertInto('tm_batches')
        .values({ name, tp_id: null, created_at: daysAgo(60 - i * 10, now) })
        .returning('id')
        .executeTakeFirstOrThrow();
      batchIds.push(b.id);
    }
    for (const seed of jobs) {
      const { fields, batch, translator, sentDaysAgo, deadline_date, ...rest } = seed;
      const deadline =
        typeof deadline_date === 'string' && deadline_date.startsWith('in:')
          ? dayFromNow(Number(deadline_date.slice(3)), now)
          : (deadline_date ?? null);
      const job = await tx
        .insertInto('tm_jobs')
        .values({
          ...rest,
          translation_service: rest.translation_service ?? 'local',
          batch_id: batchIds[batch]!,
          translator_id: translator === null ? null : (translators[translator] ?? null),
          sent_date: daysAgo(sentDaysAgo, now),
          deadline_date: deadline,
          created_at: createdAt,
          updated_at: createdAt,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await tx
        .insertInto('tm_job_fields')
        .values(fields.map((fl, position) => ({ ...fl, job_id: job.id, position })))
        .execute();
      if (rest.editor === 'ate' && rest.status !== STATUS.IN_BASKET && rest.status !== STATUS.ATE_NEEDS_RETRY) {
        const ateStatus = rest.status === STATUS.COMPLETE ? 8 : rest.status === STATUS.IN_PROGRESS ? 1 : 0;
        const ate = await tx
          .insertInto('tm_ate_jobs')
          .values({
            job_id: job.id,
            ate_status: ateStatus,
            data: JSON.stringify({ created_by: 'seed' }),
            created_at: createdAt,
            updated_at: createdAt,
          })
          .returning('ate_job_id')
          .executeTakeFirstOrThrow();
        await tx.updateTable('tm_jobs').set({ editor_job_id: ate.ate_job_id }).where('id', '=', job.id).execute();
      }
    }
  });
  return jobs.length;
}

// ---------------------------------------------------------------- bench generator

const TITLES = [
  'Partner onboarding',
  'Quarterly report',
  'Product update',
  'Case study',
  'Event recap',
  'Pricing',
  'FAQ',
  'Support hours',
  'Webinar',
  'Newsletter',
];
const GEN_STATUSES = [
  STATUS.WAITING_FOR_TRANSLATOR,
  STATUS.IN_PROGRESS,
  STATUS.COMPLETE,
  STATUS.COMPLETE,
  STATUS.IN_BASKET,
  STATUS.ATE_NEEDS_RETRY,
  STATUS.NOT_TRANSLATED,
];
const GEN_TYPES = ['post', 'post', 'post', 'package', 'st-batch_strings', 'string'] as const;

/**
 * Inserts `count` jobs (two fields each) in chunked multi-row inserts; deterministic for a
 * given count. Jobs are spread over the demo translators, ten batches and the last year.
 * Returns the number of jobs created.
 */
export async function generateJobs(app: AppServices, count: number): Promise<number> {
  if (!Number.isInteger(count) || count < 0) throw new Error(`count must be a non-negative integer, got ${count}`);
  if (count === 0) return 0;
  const translators = await ensureDemoTranslators(app);
  const now = Date.now();
  const stamp = utcNow();
  const site = app.config.siteUrl;
  const batchIds: number[] = [];
  await app.db.transaction().execute(async (tx) => {
    for (let i = 0; i < 10; i++) {
      const b = await tx
        .insertInto('tm_batches')
        .values({ name: `Generated batch ${i + 1}`, tp_id: null, created_at: stamp })
        .returning('id')
        .executeTakeFirstOrThrow();
      batchIds.push(b.id);
    }
  });
  const CHUNK = 500;
  for (let start = 0; start < count; start += CHUNK) {
    const n = Math.min(CHUNK, count - start);
    const rows: Insertable<TmJobsTable>[] = [];
    for (let k = 0; k < n; k++) {
      const i = start + k;
      const type = GEN_TYPES[i % GEN_TYPES.length]!;
      const status = GEN_STATUSES[(i * 7) % GEN_STATUSES.length]!;
      const deDirection = i % 5 === 0;
      const title = `${TITLES[i % TITLES.length]} ${i + 1}`;
      rows.push({
        type,
        element_id: 1000 + i,
        element_type:
          type === 'post'
            ? i % 2
              ? 'post_post'
              : 'post_page'
            : type === 'package'
              ? 'package_gravity_form'
              : 'st-batch_strings',
        title,
        element_url: type === 'post' ? `${site}/en/generated-${i + 1}/` : null,
        source_language: deDirection ? 'de' : 'en',
        target_language: deDirection ? 'en' : 'de',
        status,
        needs_update: status === STATUS.COMPLETE && i % 9 === 0 ? 1 : 0,
        review_status: status === STATUS.COMPLETE ? (i % 11 === 0 ? 'NEEDS_REVIEW' : 'ACCEPTED') : null,
        translator_id: status === STATUS.IN_BASKET ? null : (translators[i % translators.length] ?? null),
        batch_id: batchIds[i % batchIds.length]!,
        translation_service: i % 23 === 0 ? 'lingua-pro' : 'local',
        tp_id: null,
        ts_status: null,
        editor: i % 4 === 0 ? 'classic' : 'ate',
        editor_job_id: null,
        automatic: i % 13 === 0 ? 1 : 0,
        note: null,
        sent_date: daysAgo(i % 365, now),
        deadline_date: i % 3 === 0 ? dayFromNow((i % 60) - 20, now) : null,
        created_at: stamp,
        updated_at: stamp,
      });
    }
    await app.db.transaction().execute(async (tx) => {
      const ids = await tx.insertInto('tm_jobs').values(rows).returning('id').execute();
      const fields: Insertable<TmJobFieldsTable>[] = [];
      ids.forEach(({ id }, k) => {
        const row = rows[k]!;
        const done = row.status === STATUS.COMPLETE;
        fields.push({
          job_id: id,
          position: 0,
          field_id: 'title',
          label: 'Title',
          source: row.title,
          target: done ? `${row.title} (de)` : null,
          tm_suggestion: 0,
          finished: done ? 1 : 0,
          wrap_tag: 'h1',
        });
        fields.push({
          job_id: id,
          position: 1,
          field_id: 'body',
          label: 'Body',
          source: `<p>Generated content for ${row.title}.</p>`,
          target: null,
          tm_suggestion: 0,
          finished: 0,
          wrap_tag: null,
        });
      });
      await tx.insertInto('tm_job_fields').values(fields).execute();
    });
  }
  if (count >= 1000) await analyzeAfterBulkLoad(app.db, app.dialect, ['tm_batches', 'tm_jobs', 'tm_job_fields']);
  return count;
}
