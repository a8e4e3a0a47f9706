// How the appointment settings page reaches sched/v1: the namespace's root, and an error
// answer of it as one line for the page's notices.
import type { RestOutput } from '../../rest/pipeline.ts';

export const API = '/sched/v1';

/** The API's error answer as one line, with the fields it names. */
export function apiProblem(out: RestOutput): string {
  const body = out.body as {
    message?: string;
    error?: string;
    data?: { params?: Record<string, string>; problems?: unknown };
  } | null;
  const params = Object.entries(body?.data?.params ?? {}).map(([k, v]) => `${k}: ${v}`);
  const raw = body?.data?.problems;
  const problems = Array.isArray(raw)
    ? raw.map(String)
    : raw && typeof raw === 'object'
      ? Object.entries(raw).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('; ') : String(v)}`)
      : [];
  return [body?.message ?? body?.error ?? '', ...params, ...problems].filter(Boolean).join(' — ');
}
