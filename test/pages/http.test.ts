// The public pages over HTTP (the lead's adapter calls renderPublicPath for GETs under
// /en/ and /de/). Skipped until that wiring exists.
import { test, describe, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import { seedDemo } from '../../src/pages/seed.ts';

for (const target of dbTargets()) {
  describe(`public pages over HTTP (${target.name})`, () => {
    let t: TestApp;
    let server: FastifyInstance;
    let wired = false;
    before(async () => {
      t = await createTestApp(target);
      await seedDemo(t.app);
      server = await buildServer(t.app);
      // Before the wiring, the adapter answers every non-REST path with its 404 page.
      wired = (await server.inject({ method: 'GET', url: '/en/about/' })).statusCode !== 404;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    test('pages, embed view, headers, redirects, 404', async (ctx) => {
      if (!wired) return ctx.skip('renderPublicPath is not wired into the HTTP adapter yet');
      for (const [url, title] of [
        ['/en/', 'Welcome to our partner portal'],
        ['/de/', 'Willkommen im Partnerportal'],
        ['/en/about/', 'About us'],
        ['/de/ueber-uns/', 'Über uns'],
      ]) {
        const res = await server.inject({ method: 'GET', url: url! });
        assert.equal(res.statusCode, 200, url);
        assert.match(String(res.headers['content-type']), /^text\/html/);
        assert.ok(res.body.includes(title!), url);
        assert.match(
          String(res.headers.link),
          /^<http:\/\/localhost:8080\/(en|de)\/cms-json\/>; rel="https:\/\/api\.w\.org\/"$/,
        );
        assert.match(String(res.headers['content-security-policy']), /frame-ancestors 'self'/);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.ok(res.headers['referrer-policy']);
      }
      const embed = await server.inject({ method: 'GET', url: '/en/about/embed/' });
      assert.equal(embed.statusCode, 200);
      assert.match(String(embed.headers['content-security-policy']), /frame-ancestors \*/);
      assert.equal(embed.headers['x-frame-options'], undefined);
      const redirect = await server.inject({ method: 'GET', url: '/en/about' });
      assert.equal(redirect.statusCode, 301);
      assert.equal(redirect.headers.location, 'http://localhost:8080/en/about/');
      assert.equal((await server.inject({ method: 'GET', url: '/en/nope/' })).statusCode, 404);
      assert.equal((await server.inject({ method: 'GET', url: '/en/ueber-uns/' })).statusCode, 404);
      // the REST roots are not pages
      assert.equal((await server.inject({ method: 'GET', url: '/en/cms-json/' })).statusCode, 200);
    });
  });
}
