// Pure functions of the web pages: redirect_to, authorize parameters (reference §6.5),
// query arguments, language choice.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  addQueryArgs,
  locationSafe,
  readAuthorizeParams,
  redirectUrlProblem,
  sameSiteRedirect,
  siteAddress,
} from '../../src/web/urls.ts';
import { chooseLang, langFromAcceptLanguage, segments } from '../../src/web/i18n.ts';

const LOCAL = siteAddress('http://localhost:8080');
const PUBLIC = siteAddress('https://portal.example.com');
const SUBDIR = siteAddress('https://portal.example.com/site');

describe('siteAddress', () => {
  test('local environments', () => {
    for (const url of [
      'http://localhost:8080',
      'http://127.0.0.1:3000',
      'http://[::1]:8080',
      'http://portal.local',
      'https://dev.portal.test',
      'http://x.localhost',
    ]) {
      assert.equal(siteAddress(url).local, true, url);
    }
    for (const url of [
      'https://portal.example.com',
      'http://10.0.0.1',
      'http://localhost.example.com',
      'http://testsite.com',
    ]) {
      assert.equal(siteAddress(url).local, false, url);
    }
  });
  test('https and base path', () => {
    assert.deepEqual(SUBDIR, {
      origin: 'https://portal.example.com',
      host: 'portal.example.com',
      basePath: '/site',
      https: true,
      local: false,
    });
    assert.equal(siteAddress('http://localhost:8080').host, 'localhost:8080', 'the port only when not the default');
  });
});

describe('redirect URL validation (§6.5)', () => {
  test('valid URLs', () => {
    for (const url of [
      '',
      'https://app.example/cb',
      'https://app.example:8443/cb?x=1#f',
      'myapp://callback',
      'com.example.app://auth/done',
      'https://user@host/x',
      'https://[2001:db8::1]/cb',
    ]) {
      assert.equal(redirectUrlProblem(url, PUBLIC), null, url);
    }
  });
  test('scheme required, host required, no javascript:/data:', () => {
    for (const url of [
      'app.example/cb',
      '/relative',
      '//app.example/cb',
      'https:///path',
      'https:app.example',
      'myapp:callback',
      'javascript://x/%0Aalert(1)',
      'JavaScript://host/x',
      'data://text/html,x',
      'vbscript://x/y',
      '1http://x.y',
      'https://:8080/x',
      'https://a b/c',
      'https://app.example/\ncb',
    ]) {
      assert.equal(redirectUrlProblem(url, PUBLIC), 'invalid_redirect_url_format', url);
    }
  });
  test('plain http only on a local site', () => {
    assert.equal(redirectUrlProblem('http://app.example/cb', PUBLIC), 'invalid_redirect_scheme');
    assert.equal(redirectUrlProblem('HTTP://app.example/cb', PUBLIC), 'invalid_redirect_scheme');
    assert.equal(redirectUrlProblem('http://app.example/cb', LOCAL), null);
    assert.equal(redirectUrlProblem('http://127.0.0.1:9999/cb', siteAddress('http://site.test')), null);
  });
  test('overlong URLs are refused', () => {
    assert.equal(redirectUrlProblem('https://app.example/' + 'a'.repeat(2100), PUBLIC), 'invalid_redirect_url_format');
  });
});

describe('readAuthorizeParams', () => {
  test('all problems are collected, in parameter order', () => {
    const { problems } = readAuthorizeParams(
      { app_id: 'NOT-A-UUID', success_url: 'javascript:alert(1)', reject_url: 'http://app.example/no' },
      PUBLIC,
      true,
    );
    assert.deepEqual(problems, [
      { param: 'app_id', code: 'invalid_app_id' },
      { param: 'success_url', code: 'invalid_redirect_url_format' },
      { param: 'reject_url', code: 'invalid_redirect_scheme' },
    ]);
    assert.deepEqual(readAuthorizeParams({ app_name: '  ', success_url: 'ftp:x' }, PUBLIC, true).problems, [
      { param: 'app_name', code: 'missing_app_name' },
      { param: 'success_url', code: 'invalid_redirect_url_format' },
    ]);
  });
  test('app_name may be left out when app_id is given; app_id must be a lower-case UUID', () => {
    assert.deepEqual(
      readAuthorizeParams({ app_id: '7d0b1c2e-5a3f-4b6c-8d9e-0f1a2b3c4d5e' }, PUBLIC, true).problems,
      [],
    );
    assert.deepEqual(
      readAuthorizeParams({ app_name: 'X', app_id: '7D0B1C2E-5A3F-4B6C-8D9E-0F1A2B3C4D5E' }, PUBLIC, true).problems,
      [{ param: 'app_id', code: 'invalid_app_id' }],
    );
    assert.deepEqual(readAuthorizeParams({}, PUBLIC, false).problems, []);
  });
  test('non-text and overlong values', () => {
    assert.deepEqual(readAuthorizeParams({ app_name: ['a', 'b'], success_url: { x: '1' } }, PUBLIC, true).problems, [
      { param: 'app_name', code: 'invalid_param_type' },
      { param: 'success_url', code: 'invalid_param_type' },
    ]);
    assert.deepEqual(readAuthorizeParams({ app_name: 'a'.repeat(251) }, PUBLIC, true).problems, [
      { param: 'app_name', code: 'app_name_too_long' },
    ]);
  });
});

describe('sameSiteRedirect', () => {
  test('paths and same-origin URLs are accepted', () => {
    assert.equal(
      sameSiteRedirect(LOCAL, '/cms-admin/application-passwords.php?x=1'),
      'http://localhost:8080/cms-admin/application-passwords.php?x=1',
    );
    assert.equal(
      sameSiteRedirect(LOCAL, 'http://localhost:8080/cms-admin/x.php#f'),
      'http://localhost:8080/cms-admin/x.php#f',
    );
    assert.equal(sameSiteRedirect(SUBDIR, '/site/cms-admin/x.php'), 'https://portal.example.com/site/cms-admin/x.php');
  });
  test('anything off-site is refused', () => {
    for (const target of [
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '\\\\evil.example',
      'http://localhost:8081/x',
      'https://localhost:8080/x',
      'http://user@localhost:8080/x',
      'javascript:alert(1)',
      'evil.example',
      '/\r\nSet-Cookie:x',
      '/\tx',
      ' /x',
      '',
      'http://localhost:8080@evil.example/',
    ]) {
      assert.equal(sameSiteRedirect(LOCAL, target), null, target);
    }
    assert.equal(sameSiteRedirect(SUBDIR, '/other/x'), null);
    assert.equal(sameSiteRedirect(SUBDIR, '/site/../other/x'), null);
    assert.equal(sameSiteRedirect(LOCAL, ['/x']), null);
  });
});

describe('addQueryArgs', () => {
  test('? or &, in order, before the fragment, encoded', () => {
    assert.equal(
      addQueryArgs('https://a.example/cb', { site_url: 'http://localhost:8080', user_login: 'a b', password: 'X' }),
      'https://a.example/cb?site_url=http%3A%2F%2Flocalhost%3A8080&user_login=a%20b&password=X',
    );
    assert.equal(
      addQueryArgs('https://a.example/cb?state=1', { success: 'false' }),
      'https://a.example/cb?state=1&success=false',
    );
    assert.equal(addQueryArgs('https://a.example/cb?', { success: 'false' }), 'https://a.example/cb?success=false');
    assert.equal(addQueryArgs('myapp://cb#frag', { success: 'false' }), 'myapp://cb?success=false#frag');
    assert.equal(addQueryArgs('https://a.example/', { a: undefined }), 'https://a.example/');
  });
  test('locationSafe percent-encodes non-ASCII', () => {
    assert.equal(locationSafe('https://a.example/ü?x=ä'), 'https://a.example/%C3%BC?x=%C3%A4');
  });
});

describe('language', () => {
  test('Accept-Language with q-values', () => {
    assert.equal(langFromAcceptLanguage('de-DE,de;q=0.9,en;q=0.8'), 'de');
    assert.equal(langFromAcceptLanguage('fr-FR, en-GB;q=0.5, de;q=0.7'), 'de');
    assert.equal(langFromAcceptLanguage('fr, it'), null);
    assert.equal(langFromAcceptLanguage('de;q=0, en'), 'en');
    assert.equal(langFromAcceptLanguage(undefined), null);
  });
  test('the lang parameter wins', () => {
    assert.equal(chooseLang('en', 'de'), 'en');
    assert.equal(chooseLang('de', undefined), 'de');
    assert.equal(chooseLang('fr', 'de-AT'), 'de');
    assert.equal(chooseLang(undefined, undefined), 'en');
  });
  test('segments', () => {
    assert.deepEqual(segments('Give {app} access?', { app: '<b>' }), [
      { text: 'Give ', slot: '' },
      { text: '<b>', slot: 'app' },
      { text: ' access?', slot: '' },
    ]);
  });
});
