import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import * as op from '../../src/namespaces/sched/service.ts';
import { REDACTED, settingsJsonSchema, getAllSettings } from '../../src/namespaces/sched/settings.ts';
import { SECTIONS } from '../../src/namespaces/sched/settings-sections.ts';
import { phpToMoment } from '../../src/namespaces/sched/dates.ts';
import { seedDemo } from '../../src/namespaces/sched/seed.ts';
import { RestError } from '../../src/rest/types.ts';
import { callerFor, fakeUser, spyActivity, unwrap } from './helpers.ts';

for (const target of dbTargets()) {
  describe(`sched settings (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => {
      await t.close();
    });

    const admin = fakeUser('administrator');
    const editor = fakeUser('editor');

    test('GET settings: every section with schema_version, defaults and computed fields', async () => {
      const { body } = unwrap(await op.getSettingsOp(callerFor(t.app, admin)));
      assert.equal(body.response_code, 200);
      assert.equal(body.error, '');
      for (const s of SECTIONS) {
        assert.ok(body.data[s.slug], s.slug);
        assert.equal(body.data[s.slug].schema_version, s.version);
      }
      const g = body.data.global;
      assert.equal(g.timezone_string, 'Europe/Berlin');
      assert.equal(g.date_format, 'F j, Y');
      assert.equal(g.date_format_moment, 'MMMM D, YYYY');
      assert.equal(g.time_format_moment, 'h:mm a');
      assert.equal(g.locale, 'en_US');
      assert.equal(g.staff_name, admin.displayName);
      assert.equal(g.company_name, 'Content Site');
      assert.match(g.public_read_access_token, /^[0-9a-f]{32}$/);
      assert.ok('admin_email' in g);
      assert.equal(body.data.styles.accent_color, 'rgba(139, 195, 74, 1)');
      assert.equal(body.data.developer.debug_mode, false);
      assert.equal(body.data.installed.notifications, true);
      assert.equal(body.data.installed.stripe, false);
      assert.equal(body.data.global.last_updated, null);
    });

    test('GET settings: restricted fields removed for anonymous callers and editors', async () => {
      for (const user of [null, editor]) {
        const { body } = unwrap(await op.getSettingsOp(callerFor(t.app, user, 'de')));
        const g = body.data.global;
        assert.ok(!('admin_email' in g));
        assert.ok(!('admin_phone' in g));
        assert.ok(!('public_read_access_token' in g));
        assert.ok(!('notifications' in body.data.notifications));
        assert.ok(!('dates' in body.data.blackout_dates));
        assert.ok(!('license_key' in body.data.license));
        assert.ok('event_type_customer' in body.data.calendar_events === false);
        assert.equal(g.locale, 'de_DE');
        assert.ok('timezone_string' in g);
      }
    });

    test('POST settings/<id>: field merge, validation, last_updated, logging', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      const { body } = unwrap(
        await op.updateSettingOp(c, 'global', {
          company_name: 'ACME',
          timezone_string: 'America/New_York',
          start_of_week: '0',
        }),
      );
      assert.equal(body.response_code, 200);
      assert.equal(body.data.company_name, 'ACME');
      assert.equal(body.data.timezone_string, 'America/New_York');
      assert.equal(body.data.start_of_week, 0);
      assert.match(body.data.last_updated, /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      assert.equal(log.at(-1)?.messageKey, 'settings_updated');
      // merge keeps other fields
      const again = unwrap(await op.getSettingOp(c, 'global')).body;
      assert.equal(again.data.company_name, 'ACME');
      assert.equal(again.data.date_format, 'F j, Y');
      // UTC offsets mapped to a safe name
      const tz = unwrap(await op.updateSettingOp(c, 'global', { timezone_string: 'UTC+2' })).body;
      assert.equal(tz.data.timezone_string, 'Etc/GMT-2');
      // an empty write changes nothing and is not logged
      const n = log.length;
      const same = unwrap(await op.updateSettingOp(c, 'global', {})).body;
      assert.equal(same.data.company_name, 'ACME');
      assert.equal(log.length, n);
      // computed fields sent back are ignored, not refused
      const echo = unwrap(await op.updateSettingOp(c, 'global', { ...again.data, company_name: 'ACME 2' })).body;
      assert.equal(echo.data.company_name, 'ACME 2');
    });

    test('POST settings/<id>: every invalid field is reported, nothing is saved', async () => {
      const c = callerFor(t.app, admin);
      const before = unwrap(await op.getSettingOp(c, 'styles')).body.data;
      const cases: [string, Record<string, unknown>, string][] = [
        ['global', { timezone_string: 'Mars/Olympus' }, 'global.timezone_string'],
        ['global', { admin_email: 'not-an-email' }, 'global.admin_email'],
        ['global', { start_of_week: 9 }, 'global.start_of_week'],
        ['global', { date_format: '<b>Y</b>' }, 'global.date_format'],
        ['styles', { accent_color: 'red; background:url(x)' }, 'styles.accent_color'],
        ['styles', { contrast: 'maybe' }, 'styles.contrast'],
        ['styles', { padding: '1rem;}' }, 'styles.padding'],
        ['styles', { css: '</style><script>alert(1)</script>' }, 'styles.css'],
        ['styles', { nosuch: 1 }, 'styles.nosuch'],
        ['blackout_dates', { dates: ['2026-02-30'] }, 'blackout_dates.dates'],
        ['translation', { locales: ['xx-YY'] }, 'translation.locales'],
        [
          'notifications',
          {
            notifications: [
              {
                id: 1,
                title: 'x',
                type: 'email',
                trigger: 'appointment_booked',
                sent_to: ['a@b.co'],
                message: '{% if %}',
              },
            ],
          },
          'notifications.notifications',
        ],
        [
          'notifications',
          {
            notifications: [
              { id: 1, title: 'x', type: 'fax', trigger: 'appointment_booked', sent_to: ['nobody'], message: 'hi' },
            ],
          },
          'notifications.notifications',
        ],
        ['calendar_events', { event_type_customer: { title: '{{ _self }}' } }, 'calendar_events.event_type_customer'],
      ];
      for (const [section, input, key] of cases) {
        await assert.rejects(op.updateSettingOp(c, section, input), (err: unknown) => {
          assert.ok(err instanceof RestError, `${key}: ${err}`);
          assert.equal(err.status, 400);
          assert.equal(err.code, 'rest_invalid_param');
          assert.ok(key in (err.data.params as Record<string, string>), `${key} in ${JSON.stringify(err.data.params)}`);
          return true;
        });
      }
      const multi = (await op
        .updateSettingOp(c, 'styles', { accent_color: 'nope', font: '<x>' })
        .catch((e: unknown) => e)) as RestError;
      assert.deepEqual(Object.keys(multi.data.params as object).sort(), ['styles.accent_color', 'styles.font']);
      assert.deepEqual(unwrap(await op.getSettingOp(c, 'styles')).body.data, before);
    });

    test('settings/<id>: unknown section is a 404 envelope; installed is read-only', async () => {
      const c = callerFor(t.app, admin);
      for (const r of [
        await op.getSettingOp(c, 'nosuch'),
        await op.updateSettingOp(c, 'nosuch', { a: 1 }),
        await op.deleteSettingOp(c, 'nosuch', true),
      ]) {
        const { status, body } = unwrap(r);
        assert.equal(status, 404);
        assert.deepEqual(body, { response_code: 404, error: 'section-missing', data: [] });
      }
      await assert.rejects(op.updateSettingOp(c, 'installed', { stripe: true }), (e: RestError) => e.status === 400);
    });

    test('write-only secret: redacted on read, placeholder keeps the stored value', async () => {
      const c = callerFor(t.app, admin);
      const saved = unwrap(await op.updateSettingOp(c, 'license', { license_key: 'ABC-123' })).body.data;
      assert.equal(saved.license_key, REDACTED);
      await op.updateSettingOp(c, 'license', { license_key: REDACTED, enabled: true });
      const raw = await getAllSettings({ app: t.app, user: admin, lang: 'en' }, { redact: false });
      assert.equal((raw.license as Record<string, unknown>).license_key, 'ABC-123');
      assert.equal((raw.license as Record<string, unknown>).enabled, true);
      const empty = unwrap(await op.getSettingOp(c, 'advanced_scheduling')).body.data;
      assert.equal(empty.enabled, false);
    });

    test('POST settings: section replace, unknown sections 400 naming them', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      await assert.rejects(op.postSettingsOp(c, { styles: {}, bogus: {}, other: 1 }), (e: RestError) => {
        assert.equal(e.status, 400);
        assert.equal(e.code, 'sched_unknown_settings');
        assert.match(e.message, /bogus, other/);
        return true;
      });
      await op.updateSettingOp(c, 'styles', { font: 'Lato', contrast: true });
      const { body } = unwrap(await op.postSettingsOp(c, { styles: { accent_color: '#abcdef' } }));
      assert.equal(body.data.styles.accent_color, '#abcdef');
      assert.equal(body.data.styles.font, 'Roboto'); // the section was replaced
      assert.equal(body.data.styles.contrast, false);
      assert.match(body.data.last_updated, /^\d{4}-/);
      assert.equal(log.at(-1)?.messageKey, 'settings_updated');
      await assert.rejects(
        op.postSettingsOp(c, { styles: { accent_color: 'x' } }),
        (e: RestError) => e.status === 400 && 'styles.accent_color' in (e.data.params as object),
      );
      await assert.rejects(op.postSettingsOp(c, { styles: 'x' }), (e: RestError) => e.status === 400);
    });

    test('DELETE settings/<id>: needs force, resets to defaults and logs', async () => {
      const log = spyActivity(t.app);
      const c = callerFor(t.app, admin);
      await op.updateSettingOp(c, 'developer', { debug_mode: true });
      await assert.rejects(
        op.deleteSettingOp(c, 'developer', false),
        (e: RestError) => e.status === 400 && e.code === 'rest_trash_not_supported',
      );
      const { body } = unwrap(await op.deleteSettingOp(c, 'developer', 'true'));
      assert.equal(body.response_code, 200);
      assert.equal(body.data.debug_mode, false);
      assert.equal(body.data.last_updated, null);
      assert.equal(log.at(-1)?.messageKey, 'section_reset');
    });

    test('notifications: ids assigned to new entries, duplicates refused, templates normalised', async () => {
      const c = callerFor(t.app, admin);
      const base = {
        title: 'Email',
        type: 'email',
        trigger: 'appointment_booked',
        sent_to: ['{{customer_email}}'],
        subject: 'Hi',
        message: '{{<span>customer_name</span>}}',
      };
      const saved = unwrap(await op.updateSettingOp(c, 'notifications', { notifications: [{ ...base, id: 42 }, base] }))
        .body.data.notifications;
      assert.equal(saved[0].id, 42);
      assert.ok(saved[1].id > 1_600_000_000);
      assert.equal(saved[1].message, '{{ customer_name }}');
      assert.equal(saved[1].active, true);
      assert.equal(saved[1].when, 'after');
      await assert.rejects(
        op.updateSettingOp(c, 'notifications', {
          notifications: [
            { ...base, id: 7 },
            { ...base, id: 7 },
          ],
        }),
        (e: RestError) => e.status === 400 && /used twice/.test(JSON.stringify(e.data.params)),
      );
    });

    test('concurrent field updates of one section keep every change', async () => {
      const c = callerFor(t.app, admin);
      await op.deleteSettingOp(c, 'developer', true);
      const flags = [
        'enqueue_everywhere',
        'beta_updates',
        'object_cache',
        'rate_limiting',
        'cache_availability',
        'debug_mode',
      ];
      await Promise.all(flags.map((f) => op.updateSettingOp(c, 'developer', { [f]: true })));
      const dev = unwrap(await op.getSettingOp(c, 'developer')).body.data;
      for (const f of flags) assert.equal(dev[f], true, f);
      await op.deleteSettingOp(c, 'developer', true);
    });

    test('GET settings/schema is a JSON Schema of every section', () => {
      const s = settingsJsonSchema() as any;
      assert.equal(s.$schema, 'https://json-schema.org/draft/2020-12/schema');
      assert.equal(s.type, 'object');
      for (const def of SECTIONS) {
        assert.equal(s.properties[def.slug].type, 'object');
        assert.equal(s.properties[def.slug]['x-schema-version'], def.version);
      }
      assert.equal(s.properties.license.properties.license_key.writeOnly, true);
      assert.equal(s.properties.global.properties.admin_email.format, 'email');
      assert.equal(s.properties.global.properties.date_format_moment.readOnly, true);
      assert.ok(!JSON.stringify(s).includes('x-check'));
    });

    test('seedDemo stores demo settings with valid templates', async () => {
      // Start from an empty settings table (module metadata kept).
      await t.app.db.deleteFrom('sched_settings').where('section', '!=', '__meta').execute();
      assert.deepEqual(await seedDemo(t.app), ['global', 'styles', 'notifications']);
      assert.deepEqual(await seedDemo(t.app), []);
      const { body } = unwrap(await op.getSettingsOp(callerFor(t.app, admin)));
      assert.equal(body.data.global.company_name, 'Example Partners GmbH');
      assert.equal(body.data.notifications.notifications.length, 2);
    });

    test('seed leaves saved sections alone', async () => {
      await op.updateSettingOp(callerFor(t.app, admin), 'global', { company_name: 'Mine' });
      await seedDemo(t.app);
      const { body } = unwrap(await op.getSettingsOp(callerFor(t.app, admin)));
      assert.notEqual(body.data.global.company_name, 'Example Partners GmbH');
    });
  });
}

test('PHP date formats convert to Moment tokens', () => {
  assert.equal(phpToMoment('F j, Y'), 'MMMM D, YYYY');
  assert.equal(phpToMoment('g:i a'), 'h:mm a');
  assert.equal(phpToMoment('jS \\o\\f F'), 'Do [o][f] MMMM');
  assert.equal(phpToMoment('d.m.Y H:i'), 'DD.MM.YYYY HH:mm');
});
