// Every HTML output escapes its data, over HTTP: XSS payloads are put into every text field
// that reaches HTML — site name and tagline, page/post title, content, excerpt, author name;
// slider titles, layers, links and modal colours; activity-log messages; notification
// templates; embed-snippet attributes; login and authorize-page parameters — and every page
// kind is read back: public pages, the embed view, oEmbed HTML (JSON and XML), the slider
// modal markup, the email report preview, the notification preview, the booking-app snippet,
// the login, authorize and error pages. The payloads never appear unescaped: no element or
// attribute comes from the data (no on* handler, no javascript: URL, no foreign <script>).
// Unit-level properties of the helpers are in test/pages/escape.property.test.ts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { Parser } from 'htmlparser2';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/server/http.ts';
import { createUser } from '../../src/auth/users.ts';
import { toAuthUser } from '../../src/auth/user-rows.ts';
import { createContent } from '../../src/pages/service.ts';
import { importSliders } from '../../src/namespaces/sliderx/service.ts';
import { parseImport } from '../../src/namespaces/sliderx/import-check.ts';
import { createTestApp, type TestApp } from '../support/db.ts';
import { userWithRole } from '../support/http.ts';
import { WebClient, csrfOf, logIn } from '../web/support.ts';

const SCRIPT = '<script>alert(1)</script>';
const ATTR = '"><img src=x onerror=alert(1)>';
const SINGLE = "'><svg onload=alert(1)>";
const JS_URL = 'javascript:alert(1)';
/** Raw markup of the payloads: must never be found verbatim in HTML output. */
const RAW = [SCRIPT, ATTR, SINGLE, '<img src=x', '<svg onload'];
const TEXT = `${SCRIPT}${ATTR}${SINGLE}`;

let t: TestApp;
let server: FastifyInstance;
let admin: string;

before(async () => {
  t = await createTestApp({ name: 'sqlite' });
  server = await buildServer(t.app);
  admin = (await userWithRole(t.app, 'administrator')).authorization;
  await t.app.options.setMany({ blogname: `Site ${TEXT}`, blogdescription: `Tagline ${TEXT}` });
  const author = await createUser(t.app, {
    login: 'xss-author',
    email: 'xss@example.test',
    role: 'author',
    displayName: `Author ${TEXT}`,
  });
  await createContent(t.app, {
    type: 'page',
    lang: 'en',
    slug: 'xss-page',
    title: `Page ${TEXT}`,
    content: `Para ${TEXT}\n\n${JS_URL}`,
    excerpt: `Excerpt ${TEXT}`,
    status: 'publish',
    authorId: author.id,
  });
  await createContent(t.app, {
    type: 'post',
    lang: 'en',
    slug: 'xss-post',
    title: `Post ${TEXT}`,
    content: `Body ${TEXT}`,
    excerpt: '',
    status: 'publish',
    authorId: author.id,
    thumbnail: { url: `https://img.example.org/a.jpg?x=${encodeURIComponent(ATTR)}${ATTR}`, width: 10, height: 10 },
  });
  const slider = (nasty: boolean) => ({
    version: 1,
    sliders: [
      {
        alias: 'xss',
        title: { en: `Slider ${TEXT}`, de: `Slider ${TEXT}` },
        settings: {
          layout: 'auto',
          width: 960,
          height: 240,
          autoplay: true,
          delay: 4000,
          navigation: { arrows: true, bullets: true, thumbnails: true },
          modal: { cover: true, bg: nasty ? `red;${ATTR}` : 'rgba(0,0,0,0.5)', sp: 1 },
        },
        slides: [
          {
            title: `Slide ${TEXT}`,
            image: nasty ? JS_URL : `https://img.example.org/s.png?${ATTR}`,
            thumb: `https://img.example.org/t.png?${ATTR}`,
            link: nasty ? JS_URL : `https://ok.example/${ATTR}`,
            params: { transition: 'fade', duration: 600 },
            layers: [
              { id: 'text', type: 'text', content: `Layer ${TEXT}`, position: { x: 1, y: 1 } },
              {
                id: 'button',
                type: 'button',
                content: `Button ${TEXT}`,
                link: nasty ? JS_URL : `https://ok.example/x/${ATTR}`,
                position: { x: 1, y: 1 },
              },
              {
                id: 'img',
                type: 'image',
                content: nasty ? JS_URL : `https://img.example.org/l.png#${ATTR}`,
                alt: `Alt ${TEXT}`,
                position: { x: 1, y: 1 },
              },
            ],
          },
          {
            title: `Second ${TEXT}`,
            image: 'https://img.example.org/b.png',
            thumb: 'https://img.example.org/b-t.png',
            link: `https://ok.example/?q=${ATTR}`,
            params: { transition: 'fade', duration: 600 },
            layers: [],
          },
        ],
      },
    ],
  });
  // javascript: URLs and CSS injection are refused on input …
  const refused = parseImport(slider(true));
  assert.equal(refused.issues.length, 5, refused.issues.join('\n'));
  // … and markup in accepted text and URLs is escaped on output (tests below).
  const { sliders, issues } = parseImport(slider(false));
  assert.deepEqual(issues, []);
  await importSliders(t.app, sliders);
  // The author is the most active user of the week (the email report lists names).
  for (let i = 0; i < 5; i++)
    await t.app.activity.log(
      { logger: 'SimpleUserLogger', messageKey: 'user_logged_in', context: {} },
      { user: toAuthUser(author), ip: '127.0.0.1' },
    );
  for (const message of [`Message ${TEXT}`, `Other ${SCRIPT}`]) {
    const res = await server.inject({
      method: 'POST',
      url: '/en/cms-json/history/v1/events',
      headers: { authorization: admin },
      payload: { message, note: `Note ${TEXT}` },
    });
    assert.equal(res.statusCode, 201, res.body);
  }
});
after(async () => {
  await server.close();
  await t.close();
});

interface Tag {
  name: string;
  attrs: Record<string, string>;
  text: string;
}

function parse(html: string): Tag[] {
  const tags: Tag[] = [];
  const open: Tag[] = [];
  const p = new Parser(
    {
      onopentag(name, attrs) {
        const tag = { name, attrs, text: '' };
        tags.push(tag);
        open.push(tag);
      },
      ontext(text) {
        const top = open[open.length - 1];
        if (top) top.text += text;
      },
      onclosetag() {
        open.pop();
      },
    },
    { decodeEntities: true, lowerCaseAttributeNames: true },
  );
  p.write(html);
  p.end();
  return tags;
}

/** The payloads are text in this HTML, never markup. */
function assertInert(html: string, where: string): void {
  for (const raw of RAW) assert.ok(!html.includes(raw), `${where}: payload ${raw} appears unescaped`);
  for (const tag of parse(html)) {
    for (const [name, value] of Object.entries(tag.attrs)) {
      assert.ok(!/^on/i.test(name), `${where}: <${tag.name} ${name}=…> event handler attribute`);
      if (/^(href|src|action|formaction|poster|data|xlink:href)$/i.test(name)) {
        assert.ok(
          !/^\s*javascript:/i.test(value.replace(/[\u0000-\u0020]/g, '')),
          `${where}: <${tag.name} ${name}="${value}">`,
        );
      }
    }
    if (tag.name === 'script') assert.ok(!/alert\(1\)/.test(tag.text), `${where}: a <script> carries the payload`);
    assert.ok(!['svg', 'img'].includes(tag.name) || tag.attrs.src !== 'x', `${where}: <${tag.name}> from the data`);
  }
}

async function get(url: string, headers: Record<string, string> = {}) {
  return server.inject({ method: 'GET', url, headers });
}

test('public pages: page, post, posts list, author archive, embed views', async () => {
  for (const path of [
    '/en/xss-page/',
    '/en/xss-post/',
    '/en/',
    '/en/author/xss-author/',
    '/en/xss-page/embed/',
    '/en/xss-post/embed/',
  ]) {
    const res = await get(path);
    assert.equal(res.statusCode, 200, `${path}: ${res.body.slice(0, 200)}`);
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assertInert(res.body, path);
    assert.ok(res.body.includes('&lt;script&gt;alert(1)&lt;/script&gt;'), `${path}: the payload is shown as text`);
  }
});

test('oEmbed: the embed HTML in JSON and XML', async () => {
  for (const slug of ['xss-page', 'xss-post']) {
    const url = encodeURIComponent(`http://localhost:8080/en/${slug}/`);
    const res = await get(`/en/cms-json/oembed/1.0/embed?url=${url}`);
    assert.equal(res.statusCode, 200, res.body);
    const data = res.json() as { html: string; title: string; author_name: string };
    assertInert(data.html, `oEmbed html of ${slug}`);
    assert.ok(data.title.includes(SCRIPT), 'JSON carries the title as data (escaped where it becomes HTML)');
    const xml = await get(`/en/cms-json/oembed/1.0/embed?url=${url}&format=xml`);
    assert.equal(xml.statusCode, 200, xml.body);
    for (const raw of RAW) assert.ok(!xml.body.includes(raw), `oEmbed XML of ${slug}: ${raw}`);
  }
});

test('slider modal markup and slider data', async () => {
  for (const lang of ['en', 'de']) {
    const res = await get(`/${lang}/cms-json/sliderx/sliders/modal/xss`);
    assert.equal(res.statusCode, 200, res.body);
    assertInert((res.json() as { html: string }).html, `slider modal (${lang})`);
  }
});

test('email report preview: event messages and context', async () => {
  for (const lang of ['en', 'de']) {
    const res = await get(`/${lang}/cms-json/history/v1/email-report/preview/html`, { authorization: admin });
    assert.equal(res.statusCode, 200, res.body.slice(0, 300));
    assert.match(String(res.headers['content-type']), /^text\/html/);
    assertInert(res.body, `email report preview (${lang})`);
    assert.ok(
      res.body.includes('Site &lt;script&gt;alert(1)&lt;/script&gt;'),
      'the site name is in the report, as text',
    );
    assert.ok(
      res.body.includes('Author &lt;script&gt;alert(1)&lt;/script&gt;'),
      'the most active user is in the report, as text',
    );
  }
  // The activity-log JSON gives HTML fields too (message_html, details_html).
  const list = await get('/en/cms-json/history/v1/events?per_page=5&ungrouped=true', { authorization: admin });
  for (const event of list.json() as { message_html: string; details_html: string | null }[]) {
    assertInert(event.message_html, 'message_html');
    // Null for events without details.
    assertInert(event.details_html ?? '', 'details_html');
  }
});

test('notification preview: data, errors and refused templates stay text', async () => {
  const templates = [
    `<p>{{ "${SCRIPT.replace(/"/g, '\\"')}" }}</p>`,
    `<p title="{{ '${ATTR.replace(/'/g, "\\'")}' }}">x</p>`,
    SCRIPT,
    `<p>${ATTR}</p>`,
    `{{ ${SCRIPT} }}`,
    `<a href="${JS_URL}">x</a>`,
    `{% if %}${SCRIPT}`,
    // Data with markup (no JavaScript, so the template is rendered): escaped by auto-escaping.
    `<p>{{ "<img src=x>" }}</p>`,
    `<p title="{{ '"><img src=x>' }}">t</p>`,
  ];
  for (const template of templates) {
    const res = await server.inject({
      method: 'POST',
      url: '/en/cms-json/sched/v1/notifications/preview',
      headers: { authorization: admin },
      payload: { template },
    });
    assert.ok(res.statusCode < 500, res.body);
    const preview = (res.json() as { data?: { preview?: string } }).data?.preview;
    assert.equal(typeof preview, 'string', res.body.slice(0, 300));
    assertInert(preview!, `notification preview of ${template}`);
  }
});

test('booking-app embed snippet: query attributes cannot break out', async () => {
  const query = new URLSearchParams({
    label: `${SCRIPT}${ATTR}`,
    types: `1${ATTR}`,
    type: SCRIPT,
    edit: ATTR,
    view: `</script>${SCRIPT}`,
    accent_color: ATTR,
    background: SCRIPT,
    padding: ATTR,
    font: SCRIPT,
    flow: ATTR,
    suggest_first_available: ATTR,
    availability_start_date: SCRIPT,
  });
  const res = await get(`/en/cms-json/sched/v1/embed_booking_app?${query}`);
  assert.equal(res.statusCode, 200, res.body);
  assert.match(String(res.headers['content-type']), /^application\/javascript/);
  assert.ok(!/<\/?script/i.test(res.body), 'no script tag in the snippet');
  for (const raw of RAW) assert.ok(!res.body.includes(raw), `snippet: ${raw}`);
});

test('login, authorize and error pages: parameters are text', async () => {
  await createUser(t.app, {
    login: 'webadmin',
    email: 'webadmin@example.test',
    role: 'administrator',
    password: 'a long enough password',
  });
  const anonymous = new WebClient(server);
  const login = await anonymous.get(
    `/cms-login.php?redirect_to=${encodeURIComponent(`/x${ATTR}`)}&lang=${encodeURIComponent(SCRIPT)}`,
  );
  assertInert(login.body, 'login page');
  const failed = await anonymous.post('/cms-login.php', {
    _csrf: csrfOf(login.body),
    log: TEXT,
    pwd: 'x',
    redirect_to: `/y${ATTR}`,
  });
  assertInert(failed.body, 'failed login page');
  const forged = await anonymous.post('/cms-login.php', { _csrf: SCRIPT, log: TEXT, pwd: 'x' });
  assert.equal(forged.status, 403);
  assertInert(forged.body, 'CSRF error page');

  const client = new WebClient(server);
  await logIn(client, 'webadmin', 'a long enough password');
  const params = new URLSearchParams({
    app_name: `App ${TEXT}`,
    app_id: ATTR,
    success_url: JS_URL,
    reject_url: `https://ok.example/${ATTR}`,
  });
  const bad = await client.get(`/cms-admin/authorize-application.php?${params}`);
  assert.equal(bad.status, 400);
  assertInert(bad.body, 'authorize page with bad parameters');
  const good = await client.get(
    `/cms-admin/authorize-application.php?${new URLSearchParams({ app_name: `App ${TEXT}`, success_url: `https://app.example/cb?x=${encodeURIComponent(ATTR)}` })}`,
  );
  assert.equal(good.status, 200, good.body.slice(0, 300));
  assertInert(good.body, 'authorize page');
  const approved = await client.post('/cms-admin/authorize-application.php', {
    _csrf: csrfOf(good.body),
    action: 'approve',
    app_name: `App ${TEXT}`,
  });
  assert.equal(approved.status, 200);
  assertInert(approved.body, 'password created page');
  const list = await client.get('/cms-admin/profile.php');
  assert.equal(list.status, 200);
  assertInert(list.body, 'profile with application passwords');
});
