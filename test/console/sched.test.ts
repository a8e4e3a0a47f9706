// The appointment settings page over HTTP (Fastify inject) on every database target: who may
// open it; every field type of the settings forms round-trips through a plain form post (the
// API then answers the posted values); a refused value comes back with the API's message and
// the typed values; a template error is shown at its line; notices pin/dismiss/restore; the
// debug log, export and import; German.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { seedDemo as seedSched } from '../../src/namespaces/sched/seed.ts';
import { schedDebug } from '../../src/namespaces/sched/debuglog.ts';
import { dbTargets, type TestApp } from '../support/db.ts';
import { csrfOf, decodeEntities, type WebClient } from '../web/support.ts';
import { api, consoleClient, closeConsoleSite, openConsoleSite, textOf, type SiteUser } from './support.ts';

const SCHED = '/cms-admin/admin.php?page=sched-settings';

/** The named controls of one section's form, as a browser would post them unchanged. */
function formOf(html: string, section: string): Record<string, string | string[]> {
  const start = html.indexOf(`data-section="${section}"`);
  const form = html.slice(start, html.indexOf('</form>', start));
  const out: Record<string, string> = {};
  for (const m of form.matchAll(
    /<input type="(hidden|text|number|email|password|checkbox)" name="([^"]+)"[^>]*?value="([^"]*)"([^>]*)>/g,
  )) {
    if (m[1] === 'checkbox' && !/ checked/.test(m[4]!)) continue;
    out[m[2]!] = decodeEntities(m[3]!);
  }
  for (const m of form.matchAll(/<textarea name="([^"]+)"[^>]*>([^<]*)<\/textarea>/g))
    out[m[1]!] = decodeEntities(m[2]!);
  for (const m of form.matchAll(/<select name="([^"]+)"[^>]*>([\s\S]*?)<\/select>/g))
    out[m[1]!] = decodeEntities(/<option value="([^"]*)" selected>/.exec(m[2]!)?.[1] ?? '');
  return out;
}

for (const target of dbTargets()) {
  describe(`appointment settings page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;

    before(async () => ({ t, server, users, ada } = await openConsoleSite(target, 10, seedSched)));
    after(() => closeConsoleSite({ t, server }));

    const settings = async () => (await api(server, users.ada!, '/sched/v1/settings')).body.data;

    test('administrators open it (manage_options, as sched/v1); other roles are refused', async () => {
      for (const login of ['emil', 'tom', 'sina'])
        assert.equal((await (await consoleClient(server, login)).get(SCHED)).status, 403, login);
      const page = await ada.get(SCHED);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>Appointment Settings<\/h1>/);
      assert.match(page.body, /Appointment Settings<\/a>/, 'in the navigation');
      // Every section the API answers has its form; every field it answers, its control.
      const all = await settings();
      for (const slug of Object.keys(all).filter((k) => k !== 'last_updated')) {
        assert.match(page.body, new RegExp(`data-section="${slug}"`), slug);
        for (const field of Object.keys(all[slug]).filter((f) => f !== 'schema_version'))
          assert.match(page.body, new RegExp(`id="${slug}-sc-f-${field}`), `${slug}.${field}`);
      }
    });

    test('every field type round-trips through the plain form', async () => {
      const before = await settings();
      const page = await ada.get(SCHED);
      const csrf = csrfOf(page.body);
      const post = async (section: string, changes: Record<string, string | undefined>) => {
        const body: Record<string, string | string[] | undefined> = {
          ...formOf((await ada.get(SCHED)).body, section),
          ...changes,
        };
        for (const [k, v] of Object.entries(changes)) if (v === undefined) delete body[k];
        const res = await ada.post(SCHED, { ...body, _csrf: csrf });
        assert.equal(res.status, 303, textOf(res.body).slice(0, 600));
        return res;
      };
      // Unchanged forms keep every value as the API had it (checkboxes, numbers, unions, secrets, lists, templates).
      for (const section of [
        'global',
        'calendar_events',
        'notifications',
        'styles',
        'license',
        'blackout_dates',
        'translation',
        'developer',
      ])
        await post(section, {});
      const same = await settings();
      for (const section of [
        'global',
        'calendar_events',
        'notifications',
        'styles',
        'license',
        'blackout_dates',
        'translation',
        'developer',
      ]) {
        const strip = (s: Record<string, unknown>) => ({
          ...s,
          last_updated: null,
          notifications: (s.notifications as { last_modified?: string }[] | undefined)?.map((n) => ({
            ...n,
            last_modified: null,
          })),
        });
        assert.deepEqual(strip(same[section]), strip(before[section]), section);
      }
      // Changed: a checkbox off, a number, an e-mail, a union (string|boolean), a list of lines, a nested object's template, a secret.
      await post('global', {
        'f.enabled': undefined,
        'f.start_of_week': '3',
        'f.admin_email': 'desk@example.org',
        'f.wizard_completed': 'false',
      });
      await post('blackout_dates', { 'f.enabled': '1', 'f.dates': '2027-01-01\n\n2027-12-24 ' });
      await post('calendar_events', {
        'f.event_type_customer.title': 'Termin: {{ Appointment.AppointmentType.title }}',
      });
      await post('license', { 'f.license_key': 'ABC-123' });
      await post('styles', { 'f.accent_color': '#336699', 'f.contrast': '1' });
      const after = await settings();
      assert.deepEqual(
        [after.global.enabled, after.global.start_of_week, after.global.admin_email, after.global.wizard_completed],
        [false, 3, 'desk@example.org', false],
      );
      assert.deepEqual(
        [after.blackout_dates.enabled, after.blackout_dates.dates],
        [true, ['2027-01-01', '2027-12-24']],
      );
      assert.equal(after.calendar_events.event_type_customer.title, 'Termin: {{ Appointment.AppointmentType.title }}');
      assert.equal(after.license.license_key, 'redacted-writeonly-secret');
      assert.deepEqual([after.styles.accent_color, after.styles.contrast], ['#336699', true]);
      // A list of objects: remove one notification, add one (select, integer, lines, template, checkbox).
      const count = before.notifications.notifications.length;
      const n = count; // the index of the new, empty entry
      await post('notifications', {
        'f.notifications.0._keep': undefined,
        [`f.notifications.${n}._add`]: '1',
        [`f.notifications.${n}.title`]: 'Staff copy',
        [`f.notifications.${n}.type`]: 'email',
        [`f.notifications.${n}.trigger`]: 'appointment_canceled',
        [`f.notifications.${n}.when`]: 'after',
        [`f.notifications.${n}.duration`]: '15',
        [`f.notifications.${n}.sent_to`]: '{{admin_email}}\nboss@example.org',
        [`f.notifications.${n}.message`]: 'Cancelled: {{ Appointment.customer_information.Name }}',
        [`f.notifications.${n}.appointment_types`]: '',
        [`f.notifications.${n}.active`]: '1',
      });
      const list = (await settings()).notifications.notifications as Record<string, unknown>[];
      assert.equal(list.length, count);
      assert.deepEqual(
        list.map((x) => x.id).slice(0, -1),
        before.notifications.notifications.slice(1).map((x: { id: number }) => x.id),
      );
      const added = list.at(-1)!;
      assert.deepEqual(
        [added.title, added.trigger, added.duration, added.sent_to, added.active],
        ['Staff copy', 'appointment_canceled', 15, ['{{admin_email}}', 'boss@example.org'], true],
      );
    });

    test("a refused value: the API's message, and the form keeps what was typed", async () => {
      const page = await ada.get(SCHED);
      const res = await ada.post(SCHED, {
        ...formOf(page.body, 'global'),
        _csrf: csrfOf(page.body),
        'f.admin_email': 'not an address',
        'f.country_code': 'xx',
      });
      assert.equal(res.status, 400);
      assert.match(textOf(res.body), /global\.admin_email: admin_email must be an email address/);
      assert.match(res.body, /id="global-sc-f-admin_email" value="not an address"/);
      assert.notEqual((await settings()).global.admin_email, 'not an address');
    });

    test('a template error is shown at its line; a valid one is previewed with example data', async () => {
      const page = await ada.get(SCHED);
      const form = formOf(page.body, 'notifications');
      const broken = 'Hello\n{{ Appointment.customer_information.Name }\nBye';
      const res = await ada.post(SCHED, {
        ...form,
        _csrf: csrfOf(page.body),
        'f.notifications.0.message': broken,
        preview: 'f.notifications.0.message',
      });
      assert.equal(res.status, 200, textOf(res.body).slice(0, 500));
      assert.match(res.body, /aria-invalid="true"/);
      assert.match(textOf(res.body), /Line 2: Unable to find closing bracket/);
      assert.match(textOf(res.body), /2: \{\{ Appointment\.customer_information\.Name \}/);
      assert.match(
        res.body,
        />Hello\n\{\{ Appointment\.customer_information\.Name \}\nBye<\/textarea>/,
        'the typed template stays in the form',
      );
      const ok = await ada.post(SCHED, {
        ...form,
        _csrf: csrfOf(page.body),
        'f.notifications.0.message': 'Hi {{ Appointment.customer_information.Name }}',
        preview: 'f.notifications.0.message',
      });
      assert.match(
        ok.body,
        /<iframe class="template-preview" sandbox title="Preview of Message" srcdoc="Hi Alex Example"><\/iframe>/,
      );
    });

    test('notices: pin, dismiss and restore through their forms', async () => {
      const page = await ada.get(SCHED);
      const csrf = csrfOf(page.body);
      const act = async (op: string) => {
        const res = await ada.post(SCHED, { _csrf: csrf, action: 'notice', notice: 'promo-plus', op });
        assert.equal(res.status, 303, op);
        return (await api(server, users.ada!, '/sched/v1/notices/promo-plus')).body.data.state;
      };
      assert.equal((await act('pin')).pinned, true);
      assert.equal((await act('dismiss_all')).dismissed_globally, true);
      assert.match(textOf((await ada.get(SCHED)).body), /Pinned · Dismissed for everyone/);
      assert.equal((await act('restore_all')).dismissed_globally, false);
      assert.equal((await act('dismiss_me')).dismissed_for_user, true);
      assert.equal((await act('restore_me')).dismissed_for_user, false);
      assert.equal((await act('unpin')).pinned, false);
      const bad = await ada.post(SCHED, { _csrf: csrf, action: 'notice', notice: 'no-such-notice', op: 'pin' });
      assert.equal(bad.status, 404);
    });

    test('support tools: status, debug log, export and import', async () => {
      const debugOn = await server.inject({
        method: 'POST',
        url: '/en/cms-json/sched/v1/settings/developer',
        headers: { authorization: users.ada!.authorization },
        payload: { ssa_debug_mode: true },
      });
      assert.equal(debugOn.statusCode, 200);
      await schedDebug(t.app, 'console test line', {});
      const page = await ada.get(SCHED);
      assert.match(textOf(page.body), /Node version Good 24\./);
      assert.match(textOf(page.body), /console test line/);
      const download = /<a href="([^"]+support_debug\/ssa[^"]+)">Download<\/a>/.exec(page.body)![1]!;
      const file = await ada.get(decodeEntities(download));
      assert.equal(file.status, 200, 'the download link carries the nonce');
      assert.match(file.body, /console test line/);
      const cleared = await ada.post(SCHED, { _csrf: csrfOf(page.body), action: 'clear_log', log: 'ssa' });
      assert.equal(cleared.status, 303);
      assert.doesNotMatch(textOf((await ada.get(SCHED)).body), /console test line/);

      const exported = await ada.get(`${SCHED}&download=export`);
      assert.equal(exported.status, 200);
      assert.match(String(exported.headers['content-disposition']), /attachment; filename="sched-export\.json"/);
      const data = JSON.parse(exported.body);
      data.settings.global.company_name = 'Imported GmbH';
      const imported = await ada.post(SCHED, {
        _csrf: csrfOf(page.body),
        action: 'import',
        content: JSON.stringify(data),
      });
      assert.equal(imported.status, 303, textOf(imported.body).slice(0, 500));
      assert.equal((await settings()).global.company_name, 'Imported GmbH');
      const refused = await ada.post(SCHED, { _csrf: csrfOf(page.body), action: 'import', content: '{"settings": 5}' });
      assert.equal(refused.status, 400);
      assert.match(textOf(refused.body), /The import was refused; nothing was changed\. — settings/);
      const badCsrf = await ada.post(SCHED, { _csrf: 'nope', action: 'import', content: '{}' });
      assert.equal(badCsrf.status, 403);
    });

    test('in German', async () => {
      const de = await consoleClient(server, 'ada');
      await de.post('/cms-admin/profile.php', {
        _csrf: csrfOf((await de.get('/cms-admin/profile.php')).body),
        action: 'language',
        locale: 'de',
        return_to: 'http://localhost:8080/cms-admin/',
      });
      const page = await de.get(SCHED);
      assert.match(page.body, /<html lang="de">/);
      assert.match(page.body, /<h1>Termineinstellungen<\/h1>/);
      assert.match(textOf(page.body), /Benachrichtigungen .* Prüfen und Vorschau/);
      assert.match(textOf(page.body), /Für alle ausblenden/);
      assert.match(page.body, /<label for="notifications-sc-f-notifications-0-message">Nachricht<\/label>/);
      assert.match(textOf(page.body), /Node-Version Gut 24\./);
    });
  });
}
