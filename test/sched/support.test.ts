import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import * as op from '../../src/namespaces/sched/service.ts';
import { logPath, schedDebug } from '../../src/namespaces/sched/debuglog.ts';
import { supportStatus } from '../../src/namespaces/sched/support.ts';
import { embedScript, jsString } from '../../src/namespaces/sched/embed.ts';
import { REDACTED } from '../../src/namespaces/sched/settings.ts';
import { RestError, RestResponse } from '../../src/rest/types.ts';
import { callerFor, fakeUser, spyActivity, unwrap } from './helpers.ts';

for (const target of dbTargets()) {
  describe(`sched support (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => {
      await t.close();
    });
    const admin = fakeUser('administrator');

    test('support_status: real checks of this server', async () => {
      const { body } = unwrap(await op.supportStatusOp(callerFor(t.app, admin)));
      const s = body.data.site_status;
      for (const key of [
        'plugin_version',
        'node_version',
        'sql_server',
        'json_extension',
        'utf8mb4_support',
        'https_status',
        'site_timezone',
        'disk_space',
        'smtp',
        'support_pin',
      ]) {
        assert.ok(s[key], key);
        assert.ok(['good', 'warning', 'error'].includes(s[key].status), key);
        assert.ok(Array.isArray(s[key].notices), key);
      }
      assert.equal(s.node_version.value, process.versions.node);
      assert.match(s.sql_server.value, target.name === 'postgres' ? /^PostgreSQL \d+/ : /^SQLite 3\.\d+/);
      assert.equal(s.utf8mb4_support.status, 'good');
      assert.equal(s.https_status.status, 'warning'); // http://localhost
      assert.equal(s.site_timezone.value, 'Europe/Berlin');
      assert.match(s.support_pin.value, /^\d{6}$/);
      assert.equal(s.smtp.status, 'warning'); // none configured
      // simulated full disk; non-admin callers get no support PIN
      const low = await supportStatus(t.app, fakeUser('editor'), 'de', {
        statfs: async () => ({ freeBytes: 1024, totalBytes: 1024 ** 3 }),
      });
      assert.equal(low.disk_space.status, 'error');
      assert.ok(!('support_pin' in low));
      // https site address
      t.app.config.siteUrl = 'https://example.com';
      try {
        assert.equal((await supportStatus(t.app, admin, 'en')).https_status.status, 'good');
        t.app.config.siteUrl = 'http://example.com';
        assert.equal((await supportStatus(t.app, admin, 'en')).https_status.status, 'error');
      } finally {
        t.app.config.siteUrl = 'http://localhost:8080';
      }
    });

    test('support_ticket: validated, stored locally, logged', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      const res = (await op.supportTicketOp(c, {
        name: 'Ann',
        email: 'ann@example.com',
        subject: 'Help',
        message: 'It broke',
        include_active_plugins: 'true',
        include_settings: true,
        extra: 'ignored',
      })) as { status: string; id: number };
      assert.equal(res.status, 'success');
      assert.ok(res.id > 0);
      const row = await t.app.db
        .selectFrom('sched_tickets')
        .selectAll()
        .where('id', '=', res.id)
        .executeTakeFirstOrThrow();
      assert.equal(row.subject, 'Help');
      const payload = JSON.parse(row.payload);
      assert.ok(
        Array.isArray(payload.include_active_plugins) && payload.include_active_plugins.includes('notifications'),
      );
      assert.match(payload.include_settings, /^[0-9a-f]{32}$/);
      assert.ok(!('extra' in payload));
      assert.equal(log.at(-1)?.messageKey, 'ticket_created');
      await assert.rejects(
        op.supportTicketOp(c, { name: '', email: 'nope', message: 'x', include_settings: 'maybe' }),
        (e: RestError) => {
          assert.equal(e.status, 400);
          assert.deepEqual(Object.keys(e.data.params as object).sort(), [
            'email',
            'include_settings',
            'name',
            'subject',
          ]);
          return true;
        },
      );
    });

    test('support_debug: gated by the developer settings, downloads, clearing', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      fs.mkdirSync(path.dirname(logPath(t.app, 'wp')), { recursive: true });
      fs.writeFileSync(logPath(t.app, 'wp'), 'server line 1\nserver line 2\n');
      await schedDebug(t.app, 'not written: ssa_debug_mode is off');
      assert.equal(fs.existsSync(logPath(t.app, 'ssa')), false);
      assert.equal(await op.readDebugOp(c, 'wp', undefined), '');
      assert.equal(await op.readDebugOp(c, 'ssa', undefined), '');
      await op.updateSettingOp(c, 'developer', { debug_mode: true, ssa_debug_mode: true });
      assert.equal(await op.readDebugOp(c, 'wp', undefined), 'server line 1\nserver line 2\n');
      await schedDebug(t.app, 'hello debug', { a: 1 });
      assert.match((await op.readDebugOp(c, 'ssa', undefined)) as string, /hello debug \{"a":1\}/);
      const logs = (await op.debugLogsOp(c, (k) => `http://x/${k}`)) as Record<string, string | null>;
      assert.deepEqual(logs, { wp: 'http://x/wp', ssa: 'http://x/ssa' });
      const dl = await op.readDebugOp(c, 'wp', 'true');
      assert.ok(dl instanceof RestResponse);
      assert.equal(dl.raw?.contentType, 'text/plain; charset=UTF-8');
      assert.match(dl.headers['Content-Disposition'], /attachment; filename="server.log"/);
      assert.equal(await op.clearDebugOp(c, 'wp'), 'The debug log has been cleared.');
      assert.equal(log.at(-1)?.messageKey, 'debug_log_cleared');
      assert.equal(
        await op.clearDebugOp(callerFor(t.app, admin, 'de'), 'wp'),
        'Es wurde kein Debug-Protokoll gefunden.',
      );
      assert.equal(await op.clearDebugOp(c, 'ssa'), 'The debug log has been cleared.');
      assert.deepEqual(await op.debugLogsOp(c, (k) => k), { wp: null, ssa: null });
      await assert.rejects(op.readDebugOp(c, 'wp', 'true') as Promise<unknown>, (e: RestError) => e.status === 404);
      await op.deleteSettingOp(c, 'developer', true);
    });

    test('export: settings (secrets redacted) and notice state, backup kept', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      await op.updateSettingOp(c, 'license', { license_key: 'SECRET-1' });
      await op.updateSettingOp(c, 'notifications', {
        notifications: [
          {
            id: 5,
            title: 'Email',
            type: 'email',
            trigger: 'appointment_booked',
            sent_to: ['{{admin_email}}'],
            subject: '<b>New</b> booking',
            message: '<p class=&quot;x&quot;>Hi</p>',
          },
        ],
      });
      await op.dismissNoticeOp(c, 'promo-plus', true);
      await op.pinNoticeOp(c, 'promo-booking-flows', true);
      const ex = (await op.exportOp(c, {})) as Record<string, any>;
      assert.equal(ex.export_version, 1);
      assert.equal(ex.settings.license.license_key, REDACTED);
      assert.equal(ex.settings.notifications.notifications[0].subject, 'New booking');
      assert.equal(ex.settings.notifications.notifications[0].message, '<p class="x">Hi</p>');
      assert.deepEqual(ex.notices, { dismissed: ['promo-plus'], pinned: ['promo-booking-flows'] });
      assert.ok(!('appointments' in ex));
      assert.equal(log.at(-1)?.messageKey, 'export_created');
      const backups = await t.app.db.selectFrom('sched_backups').select('id').execute();
      assert.equal(backups.length, 1);
      const only = (await op.exportOp(c, { appointment_types: 'true', backup: 'false' })) as Record<string, any>;
      assert.ok(!('settings' in only));
      assert.deepEqual(only.appointment_types, []);
      assert.deepEqual(only.appointments, []);
      assert.equal((await t.app.db.selectFrom('sched_backups').select('id').execute()).length, 1);
    });

    test('import: round trip in one transaction; bad input changes nothing and lists every problem', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      const ex = (await op.exportOp(c, { backup: 'false' })) as Record<string, any>;
      // change things, then import the export back
      await op.updateSettingOp(c, 'styles', { accent_color: '#000000' });
      await op.restoreNoticeOp(c, 'promo-plus', true);
      assert.equal(await op.importOp(c, JSON.stringify(ex)), 'Data successfully imported!');
      assert.equal(log.at(-1)?.messageKey, 'import_applied');
      const styles = unwrap(await op.getSettingOp(c, 'styles')).body.data;
      assert.equal(styles.accent_color, ex.settings.styles.accent_color);
      const raw = await t.app.db
        .selectFrom('sched_settings')
        .select('value')
        .where('section', '=', 'license')
        .executeTakeFirstOrThrow();
      assert.equal(JSON.parse(raw.value).license_key, 'SECRET-1'); // the placeholder kept the stored secret
      const st = unwrap(await op.getNoticeOp(c, 'promo-plus')).body.data.state;
      assert.equal(st.dismissed_globally, true);

      const snapshot = async () =>
        JSON.stringify([
          await t.app.db.selectFrom('sched_settings').select(['section', 'value']).orderBy('section').execute(),
          await t.app.db
            .selectFrom('sched_notice_state')
            .select(['notice_id', 'user_id', 'kind'])
            .orderBy('id')
            .execute(),
        ]);
      const before = await snapshot();
      const bad = {
        ...ex,
        settings: {
          ...ex.settings,
          styles: { accent_color: 'nope' },
          global: { timezone_string: 'Nowhere/Zone' },
          bogus: {},
        },
        notices: { dismissed: ['no-such-notice'], pinned: 'x' },
        appointments: [{ id: 1 }],
        surprise: 1,
      };
      await assert.rejects(op.importOp(c, JSON.stringify(bad)), (e: RestError) => {
        assert.equal(e.status, 400);
        assert.equal(e.code, 'sched_import_invalid');
        const p = (e.data.problems as string[]).join('\n');
        for (const needle of [
          'surprise',
          'appointments',
          'styles.accent_color',
          'global.timezone_string',
          'bogus',
          'no-such-notice',
          'notices.pinned',
        ])
          assert.match(p, new RegExp(needle.replace('.', '\\.')), needle);
        return true;
      });
      assert.equal(await snapshot(), before);
      for (const content of [undefined, '', 'not json', '[1]', '"x"']) {
        await assert.rejects(
          op.importOp(c, content),
          (e: RestError) => e.status === 400 && Array.isArray(e.data.problems),
        );
      }
      assert.equal(await snapshot(), before);
    });

    test('fetch-guides: localized catalogue with filters', () => {
      const c = callerFor(t.app, admin, 'de');
      const all = op.fetchGuidesOp(c, {}) as any;
      assert.equal(all.total, 9);
      assert.equal(all.guides.length, 9);
      assert.equal(all.guides[0].title, 'Erste Schritte mit der Terminplanung');
      const cat = op.fetchGuidesOp(c, { category: 'troubleshooting' }) as any;
      assert.deepEqual(
        cat.guides.map((g: any) => g.slug),
        ['email-delivery', 'debug-logs'],
      );
      const search = op.fetchGuidesOp(callerFor(t.app, admin), { search: 'twig' }) as any;
      assert.deepEqual(
        search.guides.map((g: any) => g.slug),
        ['notification-templates', 'template-variables'],
      );
      const page = op.fetchGuidesOp(c, { per_page: '2', page: '2' }) as any;
      assert.equal(page.guides.length, 2);
      assert.equal(page.total_pages, 5);
      assert.equal((op.fetchGuidesOp(c, { tag: 'smtp' }) as any).total, 1);
      assert.throws(
        () => op.fetchGuidesOp(c, { category: 'nope', per_page: '1000' }),
        (e: RestError) =>
          e.status === 400 && 'category' in (e.data.params as object) && 'per_page' in (e.data.params as object),
      );
    });

    test('user/check', () => {
      assert.deepEqual(op.userCheckOp(callerFor(t.app, null)), {
        response_code: 200,
        error: '',
        data: { is_user_logged_in: false },
      });
      assert.deepEqual(op.userCheckOp(callerFor(t.app, fakeUser('subscriber'))), {
        response_code: 200,
        error: '',
        data: { is_user_logged_in: true },
      });
    });
  });
}

describe('sched embed_booking_app', () => {
  const site = 'http://localhost:8080';

  /** Runs the snippet against a fake DOM and returns the iframe's attributes. */
  function run(js: string): { attrs: Record<string, string>; inserted: boolean; alerts: number } {
    const attrs: Record<string, string> = {};
    let inserted = false;
    let alerts = 0;
    const iframe = {
      setAttribute: (k: string, v: string) => (attrs[k] = v),
      style: {} as Record<string, string>,
      className: '',
      contentWindow: {},
    };
    const script = { parentNode: { insertBefore: () => (inserted = true) } };
    const sandbox = {
      document: { currentScript: script, createElement: () => iframe, body: { appendChild: () => (inserted = true) } },
      window: { addEventListener: () => {} },
      alert: () => alerts++,
    };
    vm.runInNewContext(js, sandbox);
    return { attrs, inserted, alerts };
  }

  test('builds an iframe of the booking page with whitelisted attributes', () => {
    const js = embedScript(
      site,
      'de',
      { types: '1,2', accent_color: '#ff0000', label: 'Book', unknown: 'x', booking_url: 'javascript:alert(1)' },
      null,
    );
    const { attrs, inserted } = run(js);
    assert.ok(inserted);
    const src = new URL(attrs.src);
    assert.equal(src.origin + src.pathname, 'http://localhost:8080/de/booking/embed/');
    assert.equal(src.searchParams.get('types'), '1,2');
    assert.equal(src.searchParams.get('accent_color'), '#ff0000');
    assert.equal(src.searchParams.get('unknown'), null);
    assert.equal(src.searchParams.get('booking_url'), null);
    assert.equal(attrs.title, 'Book');
    const list = new URL(run(embedScript(site, 'en', { types: ['3', '4'], label: { a: 1 } }, null)).attrs.src);
    assert.equal(list.searchParams.get('types'), '3,4');
    assert.equal(list.searchParams.get('label'), null);
  });

  test('no caller can inject script', () => {
    const payloads = [
      '</script><script>alert(1)</script>',
      '"; alert(1); //',
      "'); alert(1); ('",
      '\u2028alert(1)',
      '${alert(1)}',
      '\\"; alert(1); //',
      '<!--<script>',
      '\u0000"\n;alert(1)',
    ];
    for (const p of payloads) {
      const raw = Object.fromEntries(
        ['label', 'types', 'font', 'booking_title', 'ssa_locale', 'edit', 'token'].map((k) => [k, p]),
      );
      const js = embedScript(site, 'en', raw, null);
      assert.doesNotMatch(js, /<\/script|<script|<!--/i, p);
      const { attrs, alerts } = run(js);
      assert.equal(alerts, 0, p);
      assert.equal(new URL(attrs.src).origin, 'http://localhost:8080');
      assert.equal(attrs.title, p.replace(/[\u0000-\u001f\u007f]/g, ''));
    }
    assert.equal(jsString('</script>\u2028&'), '"\\u003c/script\\u003e\\u2028\\u0026"');
  });

  test('edit needs a token or staff', () => {
    const anon = new URL(run(embedScript(site, 'en', { edit: '5' }, null)).attrs.src);
    assert.equal(anon.searchParams.get('edit'), null);
    const withToken = new URL(run(embedScript(site, 'en', { edit: '5', token: 'abc' }, null)).attrs.src);
    assert.equal(withToken.searchParams.get('edit'), '5');
    assert.equal(withToken.searchParams.get('token'), 'abc');
    const staff = new URL(run(embedScript(site, 'en', { edit: '5' }, fakeUser('administrator'))).attrs.src);
    assert.equal(staff.searchParams.get('edit'), '5');
  });

  test('served as raw JavaScript with CORS', () => {
    const r = op.embedOp({ app: { config: { siteUrl: site } } as any, user: null, lang: 'en', ip: '' }, {});
    assert.equal(r.raw?.contentType, 'application/javascript; charset=UTF-8');
    assert.equal(r.headers['Access-Control-Allow-Origin'], '*');
  });
});
