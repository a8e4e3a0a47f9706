// The site's own HTML pages outside the API: login and the application authorization flow
// (reference rest-core §6.5); the former list of application passwords is now the console's profile.
//
//   {base_url}/cms-login.php                          GET form, POST log in; POST ?action=logout
//   {base_url}/cms-login.php?action=rp&key=…&login=…  GET/POST: set a password with a one-time link
//   {base_url}/cms-admin/authorize-application.php    GET form, POST approve / reject
//   {base_url}/cms-admin/application-passwords.php    now part of the console's profile: redirects there
//   {base_url}/cms-includes/web.css                   the pages' one style sheet
//
// Every page is rendered by Twig with auto-escaping, carries the security headers of
// pageHeaders(), is never cached, and every form carries a CSRF token bound to the session
// (or, on the login form, to a login-nonce cookie); a missing or wrong token is a 403 page.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../site/services.ts';
import { throwawayPasswordHash } from '../auth/login-password.ts';
import { registerAuthorizePage } from './authorize-page.ts';
import { registerLoginPages } from './login-pages.ts';
import { pageHeaders, pageKit } from './page.ts';
import { PATHS, siteAddress } from './urls.ts';

const CSS_FILE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'static', 'web.css');

export async function registerWebRoutes(server: FastifyInstance, app: AppServices): Promise<void> {
  const site = siteAddress(app.config.siteUrl);
  const css = fs.readFileSync(CSS_FILE, 'utf8');
  // Failed logins without a real hash to check use this one (see verifyUserPassword).
  await throwawayPasswordHash();
  const kit = pageKit(app, site);

  // --- style sheet ---
  server.get(PATHS.css, async (_request, reply) =>
    reply
      .code(200)
      .headers({
        'Content-Type': 'text/css; charset=utf-8',
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'public, max-age=3600',
      })
      .send(css),
  );
  registerLoginPages(server, app, site, kit);
  registerAuthorizePage(server, app, site, kit);

  // --- the former application-passwords page: now part of the console's profile ---

  server.route({
    method: ['GET', 'POST'],
    url: PATHS.legacyPasswords,
    handler: (request, reply) => {
      const query = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
      return reply
        .code(request.method === 'GET' ? 302 : 303)
        .headers({
          ...pageHeaders(),
          Location: `${site.origin}${site.basePath}${PATHS.profile}${query}#application-passwords`,
        })
        .send();
    },
  });
}
