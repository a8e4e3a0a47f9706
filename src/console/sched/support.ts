// The support tools of the appointment settings page: the site status and the debug logs (shown,
// downloaded through the REST API with the session's nonce, cleared by the page's form).
import type { RestOutput } from '../../rest/pipeline.ts';
import { restNonce } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { humanize } from './settings-form.ts';

export const LOGS = ['ssa', 'wp'] as const;

/** The site status (`support_status`) as table rows; none when it cannot be read. */
export function statusItems(ctx: ConsoleContext, statusOut: RestOutput) {
  const { t } = ctx;
  const status =
    statusOut.status === 200
      ? (
          statusOut.body as {
            data: { site_status: Record<string, { status: string; value: unknown; notices: string[] }> };
          }
        ).data.site_status
      : {};
  return Object.entries(status).map(([key, item]) => ({
    label: t[`scStatusItem_${key}` as ConsoleStringKey] ?? humanize(key),
    status: item.status,
    statusLabel: t[`scStatus_${item.status}` as ConsoleStringKey] ?? item.status,
    value: typeof item.value === 'boolean' ? (item.value ? t.scYes : t.scNo) : String(item.value),
    notes: item.notices.join(' '),
  }));
}

/** The debug logs (`support_debug/<kind>`, one answer per kind of LOGS) with their download links. */
export async function logItems(ctx: ConsoleContext, logs: RestOutput[]) {
  const { t } = ctx;
  const nonceArg = `_wpnonce=${encodeURIComponent(await restNonce(ctx.app, ctx.session))}`;
  const restRoot = `${ctx.site.basePath}/${ctx.lang}/cms-json`;
  return LOGS.map((kind, i) => ({
    kind,
    title: t[`scLog_${kind}` as ConsoleStringKey],
    content: logs[i]!.status === 200 ? String(logs[i]!.body ?? '') : '',
    downloadUrl: `${restRoot}/sched/v1/support_debug/${kind}?download=true&${nonceArg}`,
  }));
}
