// Service-level tests of the custom XML configuration: well-formedness and structure
// checks, the refusal of DTDs / entity bombs / oversized input, storing, and the
// configuration's effect on the string registry — on every database target.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import {
  adminTextKey,
  customFieldAction,
  getAppliedConfig,
  getCustomXml,
  isAdminText,
  postTypeMode,
  applyCustomXml,
  syncAdminTexts,
  taxonomyMode,
  translateOption,
} from '../../src/namespaces/i18n/xml-config.ts';
import {
  MAX_XML_ATTRIBUTES,
  MAX_XML_BYTES,
  MAX_XML_ELEMENTS,
  checkContentParam,
  validateCustomXml,
  type XmlIssue,
} from '../../src/namespaces/i18n/xml-check.ts';
import { saveStringTranslation } from '../../src/namespaces/i18n-st/registry.ts';
import { findStringId, translateString } from '../../src/namespaces/i18n-st/string-lookup.ts';
import { RestError } from '../../src/rest/types.ts';
import { VALID_CONFIG } from './fixtures.ts';

/** The structure check lists at most this many problems. */
const MAX_ERRORS_SHOWN = 100;
import { listStrings } from '../../src/namespaces/i18n-st/query.ts';
import { parseStringFilters } from '../../src/namespaces/i18n-st/filters.ts';

function only(issues: XmlIssue[]): XmlIssue {
  assert.equal(issues.length, 1, JSON.stringify(issues));
  return issues[0]!;
}

describe('custom XML validation', () => {
  test('a valid configuration and content without word characters give []', () => {
    assert.deepEqual(validateCustomXml(VALID_CONFIG), []);
    assert.deepEqual(validateCustomXml(''), []);
    assert.deepEqual(validateCustomXml('  \n '), []);
    assert.deepEqual(validateCustomXml('<wpml-config/>'), []);
  });

  test('malformed XML: fatal errors with libxml fields, line and column', () => {
    const e = only(validateCustomXml('<wpml-config>\n  <custom-types>\n</wpml-config>'));
    assert.deepEqual(Object.keys(e), ['level', 'code', 'column', 'message', 'file', 'line']);
    assert.equal(e.level, 3);
    assert.equal(e.code, 76);
    assert.equal(e.file, '');
    assert.equal(e.line, 3);
    assert.ok(e.message.endsWith('\n'));
    assert.equal(only(validateCustomXml('<wpml-config>')).level, 3);
    assert.equal(only(validateCustomXml('<wpml-config a="1" a="2"/>')).code, 39);
    assert.equal(only(validateCustomXml('<wpml-config/><wpml-config/>')).code, 5);
    assert.equal(only(validateCustomXml('<wpml-config/>trailing')).code, 5);
    assert.equal(only(validateCustomXml('text <wpml-config/>')).level, 3);
    const ent = only(
      validateCustomXml('<wpml-config>\n<built-with-page-builder>&nbsp;</built-with-page-builder></wpml-config>'),
    );
    assert.equal(ent.code, 26);
    assert.equal(ent.line, 2);
    assert.match(ent.message, /Entity 'nbsp' not defined/);
    assert.equal(
      only(validateCustomXml('<wpml-config><built-with-page-builder>a & b</built-with-page-builder></wpml-config>'))
        .code,
      68,
    );
    assert.match(only(validateCustomXml('<wpml-config>&#xD800;</wpml-config>')).message, /invalid xmlChar value 55296/);
    assert.match(only(validateCustomXml('<wpml-config>&#1114112;</wpml-config>')).message, /invalid xmlChar/);
    assert.equal(only(validateCustomXml('<wpml-config>\n\u0001</wpml-config>')).line, 2);
    assert.equal(only(validateCustomXml('<wpml-config>\ud800</wpml-config>')).code, 9);
    // Escaped and numeric references are fine, also inside attributes.
    assert.deepEqual(
      validateCustomXml(
        '<wpml-config><custom-fields><custom-field action="copy" label="A &amp; B &#228;">x&lt;y</custom-field></custom-fields></wpml-config>',
      ),
      [],
    );
  });

  test('DOCTYPE and ENTITY declarations are refused: no XXE, no entity bombs', () => {
    const xxe =
      '<?xml version="1.0"?>\n<!DOCTYPE wpml-config [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<wpml-config><built-with-page-builder>&x;</built-with-page-builder></wpml-config>';
    const e = only(validateCustomXml(xxe));
    assert.equal(e.level, 3);
    assert.equal(e.line, 2);
    assert.match(e.message, /DOCTYPE declarations are not allowed/);
    let bomb = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">';
    for (let i = 1; i < 10; i++) bomb += `<!ENTITY lol${i} "${`&lol${i === 1 ? '' : i - 1};`.repeat(10)}">`;
    bomb += ']><wpml-config><built-with-page-builder>&lol9;</built-with-page-builder></wpml-config>';
    assert.match(only(validateCustomXml(bomb)).message, /DOCTYPE/);
    assert.match(only(validateCustomXml('<!doctype wpml-config><wpml-config/>')).message, /DOCTYPE/);
    assert.match(only(validateCustomXml('<wpml-config/>\n<!ENTITY a "b">')).message, /ENTITY/);
    // Inside a comment or CDATA it is only text.
    assert.deepEqual(
      validateCustomXml(
        '<!-- <!DOCTYPE x> --><wpml-config><built-with-page-builder><![CDATA[<!DOCTYPE y>]]></built-with-page-builder></wpml-config>',
      ),
      [],
    );
  });

  test('deep nesting is refused before the tree is built', () => {
    const deep =
      '<wpml-config>' +
      '<admin-texts>'.repeat(0) +
      '<key name="a">'.repeat(5000) +
      '</key>'.repeat(5000) +
      '</wpml-config>';
    const e = only(validateCustomXml(deep));
    assert.equal(e.level, 3);
    assert.match(e.message, /Excessive depth/);
  });

  test('element and attribute bounds: at the bound checked, past it a 422; an unfinished tag is named', () => {
    const config = (n: number) =>
      `<wpml-config><custom-fields>${'<custom-field action="copy">f</custom-field>'.repeat(n)}</custom-fields></wpml-config>`;
    assert.deepEqual(validateCustomXml(config(MAX_XML_ELEMENTS - 2)), []);
    assert.throws(
      () => validateCustomXml(config(MAX_XML_ELEMENTS - 1)),
      (e: RestError) => e.status === 422 && e.code === 'i18n_xml_too_complex' && /5000 elements/.test(e.message),
    );
    const attributes = (n: number) => `<wpml-config${Array.from({ length: n }, (_, i) => ` a${i}="1"`).join('')}/>`;
    assert.equal(validateCustomXml(attributes(MAX_XML_ATTRIBUTES)).length, MAX_ERRORS_SHOWN);
    assert.throws(
      () => validateCustomXml(attributes(MAX_XML_ATTRIBUTES + 1), 'de'),
      (e: RestError) => e.status === 422 && /5000 Attribute/.test(e.message),
    );
    const unfinished = only(validateCustomXml('<wpml-config>\n  <custom-types a="1>"'));
    assert.deepEqual(
      [unfinished.code, unfinished.line, unfinished.column, unfinished.message],
      [73, 2, 3, "Couldn't find end of Start Tag custom-types\n"],
    );
  });

  test('oversized input is refused with 413', () => {
    const big = `<wpml-config><built-with-page-builder>${'x'.repeat(MAX_XML_BYTES)}</built-with-page-builder></wpml-config>`;
    assert.throws(
      () => checkContentParam(big),
      (e: RestError) => e.status === 413 && e.code === 'i18n_xml_too_large',
    );
    // Bytes, not characters: 600 Ki two-byte characters are over the limit.
    assert.throws(
      () => checkContentParam('ä'.repeat(600 * 1024)),
      (e: RestError) => e.status === 413,
    );
    assert.throws(
      () => checkContentParam(42),
      (e: RestError) => e.status === 400,
    );
    assert.equal(checkContentParam('<wpml-config/>'), '<wpml-config/>');
  });

  test('structure rules: root, elements, attributes, enumerations, required attributes, text', () => {
    const root = only(validateCustomXml('<config/>'));
    assert.equal(root.level, 2);
    assert.equal(root.code, 1845);
    assert.match(root.message, /Element 'config': No matching global declaration/);
    const issues = validateCustomXml(`<wpml-config>
  <custom-types>
    <custom-type translate="5" colour="red">x</custom-type>
    <taxonomy>y</taxonomy>
  </custom-types>
  <custom-fields><custom-field>k</custom-field></custom-fields>
  <admin-texts>text here<key/></admin-texts>
  <unknown-section/>
</wpml-config>`);
    const byCode = (code: number) => issues.filter((i) => i.code === code);
    assert.ok(issues.every((i) => i.level === 2 && i.file === '' && i.message.endsWith('\n')));
    assert.match(
      byCode(1840)[0]!.message,
      /attribute 'translate': \[facet 'enumeration'\] The value '5' is not an element of the set \{'0', '1', '2'\}/,
    );
    assert.equal(byCode(1840)[0]!.line, 3);
    assert.match(byCode(1866)[0]!.message, /attribute 'colour': The attribute 'colour' is not allowed/);
    assert.equal(byCode(1871).length, 2);
    assert.match(
      byCode(1871)[0]!.message,
      /Element 'taxonomy': This element is not expected. Expected is one of \( custom-type \)/,
    );
    assert.equal(byCode(1871)[0]!.line, 4);
    assert.match(byCode(1871)[1]!.message, /Element 'unknown-section'/);
    assert.equal(byCode(1868).length, 2, 'custom-field action and key name are required');
    assert.equal(byCode(1841).length, 1, 'text in admin-texts');
  });
});

for (const target of dbTargets()) {
  describe(`custom XML configuration storage and effect (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
      await t.app.options.setMany({
        portal_texts: {
          welcome: 'Welcome, partner!',
          footer_left: 'Made in Berlin',
          footer_right: 'All rights reserved',
          other: 'x',
        },
      });
    });
    after(async () => t.close());

    test('nothing stored: empty text, empty configuration', async () => {
      assert.equal(await getCustomXml(t.app), '');
      assert.deepEqual((await getAppliedConfig(t.app)).customTypes, []);
    });

    test('storing applies the configuration; admin texts become registered strings', async () => {
      const { content, config } = await applyCustomXml(t.app, VALID_CONFIG);
      assert.equal(content, VALID_CONFIG);
      assert.equal(await getCustomXml(t.app), VALID_CONFIG);
      const applied = await getAppliedConfig(t.app);
      assert.deepEqual(applied, config);
      assert.equal(postTypeMode(applied, 'partner_offer'), 1);
      assert.equal(postTypeMode(applied, 'internal_note'), 0);
      assert.equal(postTypeMode(applied, 'page'), null);
      assert.equal(taxonomyMode(applied, 'region'), 2);
      assert.equal(customFieldAction(applied, 'teaser'), 'translate');
      assert.equal(customFieldAction(applied, 'price_net'), 'copy');
      assert.equal(customFieldAction(applied, 'other'), null);
      assert.deepEqual(
        applied.customTermFields.map((f) => f.key),
        ['region_intro'],
      );
      assert.deepEqual(applied.adminTexts, [
        ['blogname'],
        ['blogdescription'],
        ['portal_texts', 'welcome'],
        ['portal_texts', 'footer_*'],
      ]);
      assert.ok(isAdminText(applied, ['portal_texts', 'footer_left']));
      assert.ok(!isAdminText(applied, ['portal_texts', 'other']));
      assert.deepEqual(applied.shortcodes, [
        { tag: 'partner_button', type: 'line', attributes: [{ name: 'label', type: 'line', label: 'Label' }] },
      ]);
      assert.deepEqual(applied.gutenbergBlocks, [
        { type: 'portal/teaser', translate: true, xpaths: ['//h2'], keys: ['buttonText'] },
      ]);
      assert.deepEqual(applied.widgets, [
        {
          builder: 'elementor',
          name: 'portal-cta',
          fields: [{ field: 'title', type: 'CTA title', editorType: 'LINE' }],
        },
      ]);
      assert.equal(applied.builtWithPageBuilder, '//div[@class="elementor"] & more');
      // blogname, blogdescription, welcome, footer_left, footer_right
      assert.equal(applied.registeredStrings.length, 5);
      assert.deepEqual(adminTextKey(['portal_texts', 'welcome']), {
        domain: 'admin_texts_portal_texts',
        name: '[portal_texts]welcome',
      });
      assert.equal(
        await translateString(t.app, { domain: 'admin_texts_blogname', name: 'blogname' }, 'de'),
        'Content Site',
      );
      assert.equal(await translateString(t.app, adminTextKey(['portal_texts', 'footer_left']), 'de'), 'Made in Berlin');
      assert.equal(await findStringId(t.app, adminTextKey(['portal_texts', 'other'])), null);
      // Translating the admin text translates the option.
      const id = (await findStringId(t.app, { domain: 'admin_texts_blogdescription', name: 'blogdescription' }))!;
      await saveStringTranslation(t.app, id, 'de', { value: 'Partnerportal' });
      assert.equal(await translateOption(t.app, 'blogdescription', 'de'), 'Partnerportal');
      assert.equal(await translateOption(t.app, 'blogdescription', 'en'), 'Partner portal');
      assert.equal(await translateOption(t.app, 'page_on_front', 'de'), 0);
    });

    test('syncAdminTexts follows option changes; the old translation then needs an update', async () => {
      await t.app.options.set('blogdescription', 'Portal for partners');
      const key = { domain: 'admin_texts_blogdescription', name: 'blogdescription' };
      // The change reaches the registry by itself (the options' change hook), shortly after.
      let source: string | null = null;
      for (let i = 0; i < 100 && source !== 'Portal for partners'; i++) {
        source = await translateString(t.app, key, 'en');
        if (source !== 'Portal for partners') await new Promise((r) => setTimeout(r, 20));
      }
      assert.equal(source, 'Portal for partners');
      assert.equal(await syncAdminTexts(t.app), 5);
      assert.equal(await translateString(t.app, key, 'en'), 'Portal for partners');
      assert.equal(
        await translateString(t.app, key, 'de'),
        'Partnerportal',
        'previous translation served until updated',
      );
      const [item] = await listStrings(t.app, parseStringFilters({ domain: 'admin_texts_blogdescription' }), 'en');
      assert.equal(item!.translations.de!.status, 3);
    });

    test('invalid, DOCTYPE and oversized content is refused and nothing changes', async () => {
      await assert.rejects(applyCustomXml(t.app, '<wpml-config><custom-types>'), (e: RestError) => {
        assert.equal(e.status, 400);
        assert.equal(e.code, 'i18n_xml_invalid');
        assert.ok(Array.isArray(e.data.errors) && (e.data.errors as XmlIssue[]).length >= 1);
        return true;
      });
      await assert.rejects(
        applyCustomXml(
          t.app,
          '<wpml-config><custom-types><custom-type translate="9">x</custom-type></custom-types></wpml-config>',
        ),
        (e: RestError) => e.status === 400 && e.code === 'i18n_xml_invalid',
      );
      await assert.rejects(
        applyCustomXml(t.app, '<!DOCTYPE wpml-config [<!ENTITY a "aaaa">]><wpml-config/>'),
        (e: RestError) => e.status === 400 && e.code === 'i18n_xml_doctype_forbidden',
      );
      await assert.rejects(
        applyCustomXml(t.app, `<wpml-config>${' '.repeat(MAX_XML_BYTES)}</wpml-config>`),
        (e: RestError) => e.status === 413,
      );
      assert.equal(await getCustomXml(t.app), VALID_CONFIG);
    });

    test('empty content clears the configuration', async () => {
      const { config } = await applyCustomXml(t.app, '');
      assert.deepEqual(config.customTypes, []);
      assert.equal(await getCustomXml(t.app), '');
      assert.equal(postTypeMode(await getAppliedConfig(t.app), 'partner_offer'), null);
    });
  });
}
