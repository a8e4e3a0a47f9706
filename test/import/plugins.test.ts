// WPML String Translation, WPML translation jobs and Slider Revolution. The fixture has no
// String Translation and no slider data (its README says why), so these sources are built
// here: the fixture, plus rows written into the tables WPML core created empty
// (icl_strings, icl_string_translations, icl_translation_status, icl_translate_job,
// icl_translate), plus tables created from the plugins' documented schemas
// (String Translation's icl_string_packages, Slider Revolution's revslider_sliders and
// revslider_slides, version 6 JSON in params and layers).
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { buildServer } from '../../src/server/http.ts';
import { basicAuth } from '../support/http.ts';
import { createTestApp, dbTargets } from '../support/db.ts';
import { cli, createSource, skipReason, snapshot, type SourceDb } from './support.ts';

const reason = await skipReason();

const PLUGIN_DATA = `
  CREATE TABLE wp_icl_string_packages (
    ID bigint(20) unsigned NOT NULL AUTO_INCREMENT, kind_slug varchar(160) NOT NULL, kind varchar(160) NOT NULL, name varchar(160) NOT NULL,
    title varchar(160) NOT NULL, edit_link text NOT NULL, view_link text NOT NULL, post_id int(11) DEFAULT NULL, word_count varchar(2000) DEFAULT NULL,
    PRIMARY KEY (ID));
  INSERT INTO wp_icl_string_packages VALUES (1, 'gravity_form', 'Gravity Form', '3', 'Partner application form', '', '', NULL, NULL);
  INSERT INTO wp_icl_strings (id, language, context, name, value, string_package_id, location, wrap_tag, type, title, status, gettext_context, domain_name_context_md5, translation_priority, word_count) VALUES
    (1, 'en', 'admin_texts_blogname', 'blogname', 'Partner Portal', NULL, NULL, '', 'LINE', NULL, 10, '', MD5('s1'), 'optional', 2),
    (2, 'en', 'partner-portal', 'Book a call', 'Book a call', NULL, NULL, '', 'LINE', NULL, 2, 'button', MD5('s2'), 'required', 3),
    (3, 'en', 'gravity_form', 'field-1-label', 'Company name', 1, NULL, '', 'LINE', 'Company', 0, '', MD5('s3'), 'optional', 2),
    (4, 'fr', 'partner-portal', 'Bonjour', 'Bonjour', NULL, NULL, '', 'LINE', NULL, 0, '', MD5('s4'), 'optional', 1);
  INSERT INTO wp_icl_string_translations (string_id, language, status, value, translator_id) VALUES
    (1, 'de', 10, 'Partnerportal', 2), (2, 'de', 10, 'Termin buchen', NULL), (2, 'fr', 10, 'Réserver', NULL), (3, 'de', 1, NULL, 3);

  INSERT INTO wp_icl_translation_status (rid, translation_id, status, translator_id, needs_update, md5, translation_service, batch_id, translation_package, timestamp) VALUES
    (1, 91, 10, 3, 0, MD5('about'), 'local', 0, '', '2026-11-25 06:55:00'),
    (2, 94, 2, 3, 1, MD5('welcome'), 'local', 0, '', '2026-11-25 06:55:03');
  INSERT INTO wp_icl_translate_job (job_id, rid, translator_id, translated, manager_id, revision, title, deadline_date, completed_date, editor) VALUES
    (1, 1, 3, 1, 1, 1, 'About Us', NULL, NULL, 'classic'),
    (2, 1, 3, 1, 1, NULL, 'About Us (updated)', '2026-12-01 00:00:00', '2026-11-25 07:00:00', 'classic'),
    (3, 2, 3, 0, 1, NULL, 'Welcome to the Partner Portal', NULL, NULL, 'ate');
  INSERT INTO wp_icl_translate (job_id, content_id, field_type, field_wrap_tag, field_format, field_translate, field_data, field_data_translated, field_finished) VALUES
    (2, 0, 'title', '', 'base64', 1, TO_BASE64('About Us (updated)'), TO_BASE64('Über uns'), 1),
    (2, 0, 'body', '', 'base64', 1, TO_BASE64('We build software for partners in 14 countries.'), TO_BASE64('Wir entwickeln Software für Partner in 14 Ländern.'), 1),
    (3, 0, 'title', '', 'base64', 1, TO_BASE64('Welcome to the Partner Portal'), '', 0);

  INSERT INTO wp_simple_history (id, date, logger, level, message, occasionsID, initiator) VALUES
    (5000, '2026-11-25 08:00:00', 'AcmeBookingLogger', 'notice', 'Booked {room} for {guest}', MD5('booking'), 'wp_user');
  INSERT INTO wp_simple_history_contexts (history_id, \`key\`, value) VALUES
    (5000, 'room', 'Room 3'), (5000, 'guest', 'Ms. Weber'), (5000, '_message_key', 'room_booked'), (5000, '_user_id', '1'), (5000, '_user_login', 'admin');

  CREATE TABLE wp_revslider_sliders (id int(9) NOT NULL AUTO_INCREMENT, title tinytext NOT NULL, alias tinytext, params longtext NOT NULL, settings text, type varchar(191) NOT NULL DEFAULT '', UNIQUE KEY id (id));
  CREATE TABLE wp_revslider_slides (id int(9) NOT NULL AUTO_INCREMENT, slider_id int(9) NOT NULL, slide_order int(11) NOT NULL, params longtext NOT NULL, layers longtext NOT NULL, settings text NOT NULL, UNIQUE KEY id (id));
  INSERT INTO wp_revslider_sliders (id, title, alias, params, settings) VALUES
    (1, 'Partner Summit', 'summit', '{"layouttype":"fullwidth","size":{"width":{"d":1200},"height":{"d":500}},"general":{"slideshow":{"stopSlider":true}},"nav":{"arrows":{"set":true},"bullets":{"set":false}}}', '{}');
  INSERT INTO wp_revslider_slides (id, slider_id, slide_order, params, layers, settings) VALUES
    (1, 1, 2, '{"title":"Day two","bg":{"image":"http://127.0.0.1:8081/wp-content/uploads/2026/10/summit-muenchen.jpg"}}', '{"0":{"uid":0,"type":"text","text":"Trainings","position":{"x":{"d":{"v":"40px"}},"y":{"d":{"v":"60px"}}}}}', '{}'),
    (2, 1, 1, '{"title":"Day one","bg":{"image":"http://127.0.0.1:8081/wp-content/uploads/2026/10/summit-muenchen.jpg"},"seo":{"link":"http://127.0.0.1:8081/partner-program/"}}',
       '{"0":{"uid":0,"type":"text","text":"Welcome to Munich","position":{"x":{"d":{"v":"100px"}},"y":{"d":{"v":"50px"}}}},"1":{"uid":1,"type":"shape"},"2":{"uid":2,"type":"button","text":"Register","actions":{"action":[{"image_link":"http://127.0.0.1:8081/how-to-apply/"}]}}}', '{}');
`;

describe('import wordpress: strings, translation jobs and sliders', { skip: reason ?? false }, () => {
  let source: SourceDb;
  before(async () => {
    source = await createSource({ sql: PLUGIN_DATA });
  });
  after(async () => {
    await source?.drop();
  });

  for (const target of dbTargets()) {
    test(`into ${target.name}`, async () => {
      const t = await createTestApp(target);
      try {
        const res = await cli(t, [
          'import',
          'wordpress',
          '--from',
          source.url,
          '--only',
          'users,content,history,strings,jobs,sliders',
        ]);
        assert.equal(res.code, 0, res.stderr);
        assert.match(res.stdout, /strings: 4 at the source; imported 3, updated 0, unchanged 0, skipped 2/);
        assert.match(res.stdout, /skipped 1: source language "fr"/);
        assert.match(res.stdout, /jobs: 2 at the source; imported 2/);
        assert.match(res.stdout, /sliders: 1 at the source; imported 1/);
        assert.match(res.stdout, /layer types sliderx does not have, left out: shape/);

        const strings = await t.app.db.selectFrom('i18n_st_strings').selectAll().orderBy('id').execute();
        const byName = new Map(strings.map((s) => [s.name, s]));
        assert.deepEqual([...byName.keys()].sort(), ['Book a call', 'blogname', 'field-1-label']);
        assert.equal(byName.get('Book a call')!.context, 'button');
        assert.equal(byName.get('Book a call')!.domain, 'partner-portal');
        assert.equal(byName.get('Book a call')!.translation_priority, 'required');
        const pkg = await t.app.db.selectFrom('i18n_st_packages').selectAll().executeTakeFirstOrThrow();
        assert.deepEqual([pkg.kind_slug, pkg.name, pkg.title], ['gravity_form', '3', 'Partner application form']);
        assert.equal(byName.get('field-1-label')!.package_id, pkg.id);
        const translations = await t.app.db
          .selectFrom('i18n_st_translations')
          .selectAll()
          .orderBy('string_id')
          .execute();
        const de = (name: string) =>
          translations.find((x) => x.string_id === byName.get(name)!.id && x.language === 'de');
        assert.deepEqual(
          [de('blogname')?.value, de('blogname')?.status, de('blogname')?.translator_id],
          ['Partnerportal', 10, 2],
        );
        assert.equal(de('Book a call')?.value, 'Termin buchen');
        assert.deepEqual([de('field-1-label')?.value, de('field-1-label')?.status], [null, 1]);

        const jobs = await t.app.db.selectFrom('tm_jobs').selectAll().orderBy('id').execute();
        assert.equal(jobs.length, 2, 'only the newest revision of each translation');
        const about = jobs.find((j) => j.element_type === 'post_page')!;
        assert.deepEqual(
          [
            about.type,
            about.element_id,
            about.title,
            about.source_language,
            about.target_language,
            about.status,
            about.translator_id,
            about.deadline_date,
          ],
          ['post', 10, 'About Us (updated)', 'en', 'de', 10, 3, '2026-12-01'],
        );
        const fields = await t.app.db
          .selectFrom('tm_job_fields')
          .selectAll()
          .where('job_id', '=', about.id)
          .orderBy('position')
          .execute();
        assert.deepEqual(
          fields.map((f) => [f.field_id, f.source, f.target, f.finished]),
          [
            ['title', 'About Us (updated)', 'Über uns', 1],
            [
              'body',
              'We build software for partners in 14 countries.',
              'Wir entwickeln Software für Partner in 14 Ländern.',
              1,
            ],
          ],
        );
        const welcome = jobs.find((j) => j.element_type === 'post_post')!;
        assert.deepEqual([welcome.status, welcome.needs_update, welcome.editor], [2, 1, 'ate']);

        const server = await buildServer(t.app);
        try {
          // A logger this site does not have keeps its event and shows its stored template.
          const booking = await server.inject({
            method: 'GET',
            url: '/en/cms-json/history/v1/events/5000',
            headers: { authorization: basicAuth('admin', 'vEpt DF1D RlmT pLcO 0inK RSjo') },
          });
          assert.equal(booking.statusCode, 200, booking.body.slice(0, 300));
          const event = JSON.parse(booking.body);
          assert.deepEqual(
            [event.logger, event.message, event.message_key, event.loglevel, event.initiator],
            ['AcmeBookingLogger', 'Booked Room 3 for Ms. Weber', 'room_booked', 'notice', 'cms_user'],
          );
          const slider = await server.inject({ method: 'GET', url: '/en/cms-json/sliderx/sliders/summit' });
          assert.equal(slider.statusCode, 200, slider.body.slice(0, 300));
          const body = JSON.parse(slider.body);
          const text = JSON.stringify(body);
          assert.ok(text.includes('Day one') && text.includes('Day two'), text.slice(0, 500));
          assert.ok(text.indexOf('Day one') < text.indexOf('Day two'), 'slides in slide_order');
          assert.ok(text.includes('Welcome to Munich') && text.includes('Register'));
        } finally {
          await server.close();
        }
        const stored = await t.app.db.selectFrom('sliders').selectAll().executeTakeFirstOrThrow();
        const settings = JSON.parse(stored.settings);
        assert.deepEqual(
          [settings.layout, settings.width, settings.height, settings.autoplay, settings.navigation.bullets],
          ['fullwidth', 1200, 500, false, false],
        );

        const once = await snapshot(t);
        const again = await cli(t, [
          'import',
          'wordpress',
          '--from',
          source.url,
          '--only',
          'users,content,history,strings,jobs,sliders',
        ]);
        assert.equal(again.code, 0, again.stderr);
        assert.equal(await snapshot(t), once, 'a second run changes nothing');
      } finally {
        await t.close();
      }
    });
  }
});
