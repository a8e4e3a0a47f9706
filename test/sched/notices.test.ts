import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import * as op from '../../src/namespaces/sched/service.ts';
import { NOTICES } from '../../src/namespaces/sched/notice-catalogue.ts';
import { noticesJsonSchema } from '../../src/namespaces/sched/notice-schema.ts';
import { errorNotices } from '../../src/namespaces/sched/errors.ts';
import { RestError } from '../../src/rest/types.ts';
import { callerFor, fakeUser, spyActivity, unwrap } from './helpers.ts';

for (const target of dbTargets()) {
  describe(`sched notices (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => {
      await t.close();
    });
    const admin = fakeUser('administrator');
    const admin2 = fakeUser('administrator');

    test('GET notices: the most important eligible notice, pinned list', async () => {
      const { body } = unwrap(await op.listNoticesOp(callerFor(t.app, admin)));
      assert.equal(body.response_code, 200);
      assert.deepEqual(body.data, { notice_to_display: 'setup-notifications', pinned_notices: [] });
    });

    test('dismiss for the user only, then site-wide; restore', async () => {
      const log = spyActivity(t.app);
      const c1 = callerFor(t.app, admin);
      const c2 = callerFor(t.app, admin2);
      const r = unwrap(await op.dismissNoticeOp(c1, 'setup-notifications', 'false')).body;
      assert.deepEqual(r.data, { noticeName: 'setup-notifications', global: false, dismissed: true });
      assert.equal(log.at(-1)?.messageKey, 'notice_dismissed');
      // hidden for admin, still shown for admin2
      assert.notEqual(unwrap(await op.listNoticesOp(c1)).body.data.notice_to_display, 'setup-notifications');
      assert.equal(unwrap(await op.listNoticesOp(c2)).body.data.notice_to_display, 'setup-notifications');
      const st = unwrap(await op.getNoticeOp(c1, 'setup-notifications')).body.data;
      assert.equal(st.state.dismissed_for_user, true);
      assert.equal(st.state.dismissed_globally, false);
      assert.equal(st.notice.name, 'Set up your notifications');
      // site-wide
      await op.dismissNoticeOp(c2, 'setup-notifications', true);
      assert.notEqual(unwrap(await op.listNoticesOp(c2)).body.data.notice_to_display, 'setup-notifications');
      // dismissing twice is fine and not logged again
      const n = log.length;
      await op.dismissNoticeOp(c2, 'setup-notifications', true);
      assert.equal(log.length, n);
      // restore site-wide: admin2 sees it again, admin still has a personal dismissal
      await op.restoreNoticeOp(c2, 'setup-notifications', 'true');
      assert.equal(log.at(-1)?.messageKey, 'notice_restored');
      assert.equal(unwrap(await op.listNoticesOp(c2)).body.data.notice_to_display, 'setup-notifications');
      assert.notEqual(unwrap(await op.listNoticesOp(c1)).body.data.notice_to_display, 'setup-notifications');
      await op.restoreNoticeOp(c1, 'setup-notifications', false);
      assert.equal(unwrap(await op.listNoticesOp(c1)).body.data.notice_to_display, 'setup-notifications');
    });

    test('pin and unpin', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin, 'de');
      const r = unwrap(await op.pinNoticeOp(c, 'promo-booking-flows', true)).body;
      assert.deepEqual(r.data, { pinned_notice: 'promo-booking-flows', pinned: true });
      assert.equal(log.at(-1)?.messageKey, 'notice_pinned');
      // pinned notices are boosted to priority 22, ahead of setup notices (25)
      const list = unwrap(await op.listNoticesOp(c)).body.data;
      assert.deepEqual(list, { notice_to_display: 'promo-booking-flows', pinned_notices: ['promo-booking-flows'] });
      const st = unwrap(await op.getNoticeOp(c, 'promo-booking-flows')).body.data;
      assert.equal(st.state.pinned, true);
      assert.equal(st.notice.name, 'Neu: Buchungsabläufe');
      await op.pinNoticeOp(c, 'promo-booking-flows', false);
      assert.equal(log.at(-1)?.messageKey, 'notice_unpinned');
      assert.deepEqual(unwrap(await op.listNoticesOp(c)).body.data.pinned_notices, []);
    });

    test('unknown notices are a 404 envelope; global must be boolean', async () => {
      const c = callerFor(t.app, admin);
      for (const r of [
        await op.getNoticeOp(c, 'nope'),
        await op.dismissNoticeOp(c, 'nope', true),
        await op.restoreNoticeOp(c, 'nope', false),
        await op.pinNoticeOp(c, 'nope', true),
        await op.pinNoticeOp(c, 'nope', false),
      ]) {
        const { status, body } = unwrap(r);
        assert.equal(status, 404);
        assert.deepEqual(body, { response_code: 404, error: 'notice-missing', data: [] });
      }
      await assert.rejects(
        op.dismissNoticeOp(c, 'promo-plus', 'perhaps'),
        (e: RestError) => e.status === 400 && e.code === 'rest_invalid_param',
      );
    });

    test('notices/schema is a JSON Schema listing the catalogue', () => {
      const s = noticesJsonSchema() as any;
      assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.deepEqual(
        s.properties.id.enum,
        NOTICES.map((n) => n.id),
      );
      assert.ok(NOTICES.length >= 13);
    });

    test('notices-errors: detected, re-checked, dropped once resolved', async () => {
      const c = callerFor(t.app, admin);
      op.hooks.statfs = async () => ({ freeBytes: 50 * 1024 ** 3, totalBytes: 100 * 1024 ** 3 });
      after(() => {
        delete op.hooks.statfs;
      });
      const ids = async () =>
        (unwrap(await op.noticesErrorsOp(c)).body.data.error_notices as { id: string }[]).map((n) => n.id);
      assert.deepEqual(await ids(), []);
      // invalid site timezone
      await t.app.options.set('timezone_string', 'Mars/Olympus');
      assert.ok((await ids()).includes('site_timezone_invalid'));
      await t.app.options.set('timezone_string', 'Europe/Berlin');
      assert.ok(!(await ids()).includes('site_timezone_invalid'));
      // debug logging on
      await op.updateSettingOp(c, 'developer', { debug_mode: true });
      assert.ok((await ids()).includes('debug_logging_on'));
      await op.deleteSettingOp(c, 'developer', true);
      // low disk (simulated)
      const low = await errorNotices(t.app, 'de', {
        statfs: async () => ({ freeBytes: 10 * 1024 * 1024, totalBytes: 100 * 1024 ** 3 }),
      });
      const disk = low.find((n) => n.id === 'disk_space_low');
      assert.equal(disk?.type, 'error');
      assert.match(disk!.message, /Datenordner/);
      const warn = await errorNotices(t.app, 'en', {
        statfs: async () => ({ freeBytes: 600 * 1024 * 1024, totalBytes: 100 * 1024 ** 3 }),
      });
      assert.equal(warn.find((n) => n.id === 'disk_space_low')?.type, 'warning');
    });

    test('notices-errors: SMTP configured but unreachable, then reachable', async () => {
      const server = net.createServer((s) => {
        s.write('220 test ESMTP\r\n');
        s.on('data', () => s.end());
        s.on('error', () => {});
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      const port = (server.address() as net.AddressInfo).port;
      await new Promise<void>((r) => server.close(() => r()));
      t.app.config.smtpUrl = `smtp://127.0.0.1:${port}`;
      try {
        const down = await errorNotices(t.app, 'en');
        assert.equal(down.find((n) => n.id === 'smtp_unreachable')?.type, 'error');
        await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
        const up = await errorNotices(t.app, 'en');
        assert.ok(!up.some((n) => n.id === 'smtp_unreachable'));
      } finally {
        t.app.config.smtpUrl = null;
        server.close();
      }
    });
  });
}
