// The custom XML configuration page over HTTP (Fastify inject) on every database target: who may
// open it, checking a configuration with problems (each shown at its line, in the list and in
// the numbered lines, as the API's validate route reports them), a refused save that keeps the
// stored text, a save that the API then returns, German texts.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { dbTargets, type TestApp } from '../support/db.ts';
import { csrfOf, decodeEntities, type WebClient } from '../web/support.ts';
import { VALID_CONFIG } from '../i18n/fixtures.ts';
import { api, consoleClient, closeConsoleSite, openConsoleSite, textOf, type SiteUser } from './support.ts';

const XML = '/cms-admin/admin.php?page=i18n/menu/custom-xml-config.php';

for (const target of dbTargets()) {
  describe(`custom XML configuration page (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let users: Record<string, SiteUser>;
    let ada: WebClient;

    before(async () => ({ t, server, users, ada } = await openConsoleSite(target, 20)));
    after(() => closeConsoleSite({ t, server }));

    test('administrators open it; other roles are refused', async () => {
      for (const login of ['emil', 'tom', 'sina']) {
        assert.equal((await (await consoleClient(server, login)).get(XML)).status, 403, login);
      }
      const page = await ada.get(XML);
      assert.equal(page.status, 200);
      assert.match(page.body, /<h1>Custom XML Configuration<\/h1>/);
      assert.match(page.body, /<textarea id="xml-content" name="content"/);
    });

    test('checking shows each problem at its line, as the API reports it', async () => {
      const broken = VALID_CONFIG.replace('<custom-types>', '<custom-types colour="red">').replace(
        /<\/taxonomies>/,
        '</taxonomie>',
      );
      const page = await ada.get(XML);
      const res = await ada.post(XML, { _csrf: csrfOf(page.body), action: 'validate', content: broken });
      assert.equal(res.status, 400);
      const answer = await server.inject({
        method: 'POST',
        url: '/en/cms-json/i18n/v1/custom-xml-config/validate',
        headers: { authorization: users.ada!.authorization, 'content-type': 'application/json' },
        payload: JSON.stringify({ content: broken }),
      });
      const issues = answer.json() as { line: number; column: number; message: string }[];
      assert.ok(issues.length >= 1);
      assert.match(textOf(res.body), new RegExp(`Problems found: ${issues.length}\\.`));
      const lines = broken.split('\n');
      for (const issue of issues) {
        assert.match(
          decodeEntities(res.body),
          new RegExp(
            `<a href="#xml-line-${issue.line}" data-line="${issue.line}">Line ${issue.line}, column ${issue.column}</a>`,
          ),
        );
        // The numbered line shows the text of that line and the problem under it.
        const item = new RegExp(
          `<li id="xml-line-${issue.line}" value="${issue.line}" class="has-issue">\\s*<code>([^<]*)</code>\\s*<p class="xml-issue">Line ${issue.line}, column ${issue.column}: ([^<]*)</p>`,
        ).exec(res.body);
        assert.ok(item, `line ${issue.line} is shown with its problem`);
        assert.equal(decodeEntities(item[1]!), lines[issue.line - 1]);
        assert.ok(decodeEntities(item[2]!).startsWith(issue.message.trim()));
      }
      assert.match(decodeEntities(res.body), /<textarea[^>]*>[\s\S]*<\/taxonomie>/, 'the text stays in the field');
      const valid = await ada.post(XML, { _csrf: csrfOf(page.body), action: 'validate', content: VALID_CONFIG });
      assert.equal(valid.status, 200);
      assert.match(textOf(valid.body), /The configuration is valid\./);
    });

    test('a refused save stores nothing and shows where; a valid save is what the API then returns', async () => {
      const page = await ada.get(XML);
      const bad = await ada.post(XML, {
        _csrf: csrfOf(page.body),
        action: 'save',
        content: '<wpml-config>\n  <custom-types>\n</wpml-config>',
      });
      assert.equal(bad.status, 400);
      assert.match(textOf(bad.body), /The XML configuration is not valid: .* \(line 3, column \d+\)\./);
      assert.match(bad.body, /<li id="xml-line-3" value="3" class="has-issue">/);
      assert.equal((await api(server, users.ada!, '/i18n/v1/custom-xml-config')).body, '');
      const dtd = await ada.post(XML, {
        _csrf: csrfOf(page.body),
        action: 'save',
        content: '<!DOCTYPE x [<!ENTITY a "b">]>\n<wpml-config/>',
      });
      assert.equal(dtd.status, 400);
      assert.match(textOf(dtd.body), /may not contain a DOCTYPE or entity declarations/);
      const saved = await ada.post(XML, { _csrf: csrfOf(page.body), action: 'save', content: VALID_CONFIG });
      assert.equal(saved.status, 303);
      const back = await ada.get(saved.location!);
      assert.match(textOf(back.body), /The configuration has been saved and applied\./);
      assert.equal((await api(server, users.ada!, '/i18n/v1/custom-xml-config')).body, VALID_CONFIG);
      assert.equal((await ada.post(XML, { _csrf: 'nope', action: 'save', content: '' })).status, 403);
    });

    test('German texts', async () => {
      await t.app.db.updateTable('users').set({ locale: 'de' }).where('login', '=', 'ada').execute();
      const page = await ada.get(XML);
      const res = await ada.post(XML, {
        _csrf: csrfOf(page.body),
        action: 'validate',
        content: '<wpml-config>\n<x/>\n</wpml-config>',
      });
      assert.match(res.body, /<h1>Benutzerdefinierte XML-Konfiguration<\/h1>/);
      assert.match(textOf(res.body), /Gefundene Probleme: 1\./);
      assert.match(textOf(res.body), /Zeile 2, Spalte \d+/);
      await t.app.db.updateTable('users').set({ locale: 'en' }).where('login', '=', 'ada').execute();
    });
  });
}
