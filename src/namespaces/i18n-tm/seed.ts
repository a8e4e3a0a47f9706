// Demo content of translation management: the demo translators and the demo jobs (demo-jobs.ts),
// with their batches and translation-editor records. The benchmark's bulk generator is
// generate-jobs.ts.
import type { AppServices } from '../../site/services.ts';
import { createUser } from '../../auth/users.ts';
import { findUserByLogin } from '../../auth/user-rows.ts';
import { utcNow, formatUtc } from '../../site/time.ts';
import { DEMO_BATCHES, demoJobs } from './demo-jobs.ts';
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

/** A time `days` before `base`, as stored (UTC `YYYY-MM-DD HH:MM:SS`). */
export function daysAgo(days: number, base = Date.now()): string {
  return formatUtc(new Date(base - days * 86_400_000));
}

/** The calendar date `days` after `base` (`YYYY-MM-DD`). */
export function dayFromNow(days: number, base = Date.now()): string {
  return formatUtc(new Date(base + days * 86_400_000)).slice(0, 10);
}

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
