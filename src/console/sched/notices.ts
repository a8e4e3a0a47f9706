// The notices part of the appointment settings page: the API's error notices, and every notice
// of the catalogue with its state for this user and the operations on it (pin/unpin,
// dismiss/restore for the user or for everyone), which the page's form posts run.
import type { RestOutput } from '../../rest/pipeline.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext } from '../context.ts';
import type { ConsoleStringKey } from '../i18n.ts';
import { API } from './rest.ts';

export const NOTICE_OPS: Record<
  string,
  { method: 'POST' | 'DELETE'; route: (id: string) => string; global?: boolean }
> = {
  pin: { method: 'POST', route: (id) => `notices/pinned/${id}` },
  unpin: { method: 'POST', route: (id) => `notices/pinned/delete/${id}` },
  dismiss_me: { method: 'POST', route: (id) => `notices/${id}`, global: false },
  dismiss_all: { method: 'POST', route: (id) => `notices/${id}`, global: true },
  restore_me: { method: 'DELETE', route: (id) => `notices/${id}`, global: false },
  restore_all: { method: 'DELETE', route: (id) => `notices/${id}`, global: true },
};

/** Every notice of the catalogue (`notices/schema`) with its state, marking the one `GET notices` shows. */
export async function noticeItems(ctx: ConsoleContext, listOut: RestOutput, schemaOut: RestOutput) {
  const { t } = ctx;
  const list =
    listOut.status === 200 ? (listOut.body as { data: { notice_to_display: string } }).data : { notice_to_display: '' };
  const noticeIds = (schemaOut.body as { properties: { id: { enum: string[] } } }).properties.id.enum;
  return Promise.all(
    noticeIds.map(async (id) => {
      const out = await ctx.api('GET', `${API}/notices/${id}`);
      const d = (
        out.body as {
          data: { notice: { name: string; description: string; priority: string }; state: Record<string, boolean> };
        }
      ).data;
      const s = d.state;
      const ops = [
        s.pinned ? 'unpin' : 'pin',
        s.dismissed_for_user ? 'restore_me' : 'dismiss_me',
        s.dismissed_globally ? 'restore_all' : 'dismiss_all',
      ];
      return {
        id,
        name: d.notice.name,
        description: d.notice.description,
        shown: list.notice_to_display === id,
        states: [
          s.pinned && t.scPinned,
          s.dismissed_for_user && t.scDismissedMe,
          s.dismissed_globally && t.scDismissedAll,
          !s.eligible && t.scNotEligible,
          list.notice_to_display === id && t.scShownNow,
        ].filter(Boolean),
        ops: ops.map((op) => ({
          op,
          label: t[`scOp_${op}` as ConsoleStringKey],
          aria: fmt(t.scOpOn, { op: t[`scOp_${op}` as ConsoleStringKey], notice: d.notice.name }),
        })),
      };
    }),
  );
}

/** The API's error notices (`notices-errors`); none when it cannot be read. */
export function errorNotices(errorsOut: RestOutput): { id: string; type: string; message: string }[] {
  return errorsOut.status === 200
    ? (errorsOut.body as { data: { error_notices: { id: string; type: string; message: string }[] } }).data
        .error_notices
    : [];
}
