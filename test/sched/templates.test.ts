import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { createTestApp, dbTargets, type TestApp } from '../support/db.ts';
import * as op from '../../src/namespaces/sched/service.ts';
import { normalizeTemplate, renderTemplate, validateTemplate } from '../../src/namespaces/sched/twig.ts';
import { TemplateError, TemplateLimitError, type TemplateLimit } from '../../src/namespaces/sched/twig-errors.ts';
import { renderPreview } from '../../src/namespaces/sched/preview.ts';
import { sanitizeHtml } from '../../src/namespaces/sched/sanitize.ts';
import { DEMO_NOTIFICATIONS } from '../../src/namespaces/sched/seed.ts';
import { RestError } from '../../src/rest/types.ts';
import { callerFor, fakeUser, unwrap } from './helpers.ts';

/** Each template fails validation with an error matching its pattern. */
function assertRefused(cases: readonly (readonly [string, RegExp])[]): void {
  for (const [tpl, re] of cases) {
    const r = validateTemplate(tpl);
    assert.equal(r.success, false, tpl);
    assert.match(r.error!, re, tpl);
  }
}

describe('sched template sandbox', () => {
  test('valid templates pass', () => {
    for (const s of [
      'Hello {{ name }}',
      '{% if a %}x{% elseif b %}y{% else %}z{% endif %}',
      '{% for i in range(1, 3) %}{{ i }}{% endfor %}',
      '{% set x = [1, 2] %}{{ x|join(", ") }}',
      '{{ "abc"|upper|lower|trim|length }}',
      '{{ "now"|date("Y") }} {{ 1234.5|number_format(2) }} {{ "a,b"|split(",")|first }} {{ t|nl2br }} {{ x|escape }} {{ x|raw }}',
      '{{ u|link("here") }} {{ "Date"|trans }} {{ "March"|internationalize }} {{ s|slice(0, 2)|replace({"a": "b"}) }}',
      '{% block content %}x{% endblock %}',
      ...DEMO_NOTIFICATIONS.flatMap((n) => [n.subject, n.message]),
    ]) {
      assert.deepEqual(validateTemplate(s), { success: true }, s);
    }
  });

  test('syntax errors, disallowed tags/filters/functions are reported', () => {
    const cases: [string, RegExp][] = [
      ['{% if a %}x', /Unexpected end of template/],
      ['{% endif %}', /Error:/],
      ['{{ x', /Error:/],
      ['{{ a|nosuch }}', /Filter "nosuch" is not allowed/],
      ['{{ a|json_encode }}', /Filter "json_encode" is not allowed/],
      ['{% filter upper %}x{% endfilter %}', /Tag "filter" is not allowed/],
      ['{% apply upper %}x{% endapply %}', /Tag "apply" is not allowed/],
      ['{% macro m() %}{% endmacro %}', /Tag "macro" is not allowed/],
      ['{% do 1 %}', /Tag "do" is not allowed/],
      ['{{ dump(a) }}', /Function "dump" is not allowed/],
      ['{{ random() }}', /Function "random" is not allowed/],
    ];
    assertRefused(cases);
  });

  test('sandbox escapes are refused', () => {
    const escapes = [
      '{{ a.b() }}',
      '{{ a.b(1, 2) }}',
      '{{ _self }}',
      '{{ _context }}',
      '{{ _charset }}',
      '{{ constant("PHP_VERSION") }}',
      '{% include "x.twig" %}',
      '{{ include("x.twig") }}',
      '{{ source("/etc/passwd") }}',
      '{% import "x.twig" as m %}',
      '{% from "x.twig" import m %}',
      '{% embed "x.twig" %}{% endembed %}',
      '{% extends "x.twig" %}',
      '{% use "x.twig" %}',
      '{{ attribute(a, "b") }}',
      '{{ template_from_string("{{ 1 }}") }}',
      '{{ a.constructor }}',
      '{{ a["constructor"] }}',
      '{{ a.__proto__ }}',
      '{{ [].constructor.constructor("return process")() }}',
      '{{ "x".constructor }}',
      '{% set constructor = 1 %}',
    ];
    for (const s of escapes) {
      const r = validateTemplate(s);
      assert.equal(r.success, false, s);
      assert.match(r.error!, /not allowed|Error:/, s);
    }
    // Computed keys are checked at runtime.
    for (const [s, ctx] of [
      ['{{ a[("constr" ~ "uctor")] }}', { a: {} }],
      ['{% set k = "__pro" ~ "to__" %}{{ a[k] }}', { a: { x: 1 } }],
      ['{{ s[k] }}', { s: 'abc', k: 'constructor' }],
    ] as const) {
      assert.throws(
        () => renderTemplate(s, ctx as Record<string, unknown>),
        (e: unknown) => e instanceof TemplateError && /not allowed/.test(e.message),
        s,
      );
    }
    assert.equal(renderTemplate('[{{ l[k] }}]', { l: [1, 2], k: 'map' }), '[]');
    // Inherited members of plain data are invisible, functions are dropped.
    assert.equal(
      renderTemplate('[{{ a.isPrototypeOf2 }}{{ l.map }}{{ l.push }}{{ s.big }}{{ f }}{{ o.f }}]', {
        a: {},
        l: [1],
        s: 'x',
        f: () => 'called',
        o: { f: () => 'called' },
      } as Record<string, unknown>),
      '[]',
    );
  });

  test('resource limits: no template can exhaust memory or time', () => {
    assert.match(validateTemplate('{% for i in range(1, 100000000) %}x{% endfor %}').error!, /range\(\) is limited/);
    const limits: [string, TemplateLimit, RegExp][] = [
      ['{% set s = "xxxxxxxx" %}{% for i in range(1, 40) %}{% set s = s ~ s %}{% endfor %}', 'size', /longer than/],
      [
        '{% set s = "xxxxxxxx" %}{% for i in range(1, 40) %}{% set s = s|replace({"x": s}) %}{% endfor %}',
        'size',
        /longer than/,
      ],
      [
        "{% set s = 'x' %}{% for i in range(1, 18) %}{% set s = s ~ s %}{% endfor %}{% for i in range(1, 1000) %}{% set t = s|length %}{% endfor %}",
        'work',
        /too much work/,
      ],
    ];
    for (const [s, limit, re] of limits) {
      assert.throws(
        () => validateTemplate(s),
        (e: unknown) => e instanceof TemplateLimitError && e.limit === limit && re.test(e.message),
        s,
      );
    }
    // A billion loop steps: the step budget or, on a busy machine, the time limit stops it.
    assert.throws(
      () =>
        validateTemplate(
          '{% for a in range(1,1000) %}{% for b in range(1,1000) %}{% for c in range(1,1000) %}{% endfor %}{% endfor %}{% endfor %}',
        ),
      (e: unknown) => e instanceof TemplateLimitError && (e.limit === 'work' || e.limit === 'time'),
    );
    assert.deepEqual(validateTemplate('{% for i in range(1, 1000) %}{{ i }}{% endfor %}'), { success: true });
    // Too many tags, pathological nesting and markup: answered, or refused as too big to compile.
    assert.match(validateTemplate('{{ a }}'.repeat(2001)).error!, /more than 2000 tags/);
    assert.deepEqual(validateTemplate('{{ a }}'.repeat(1000)), { success: true });
    for (const s of [
      '{{ ' + '('.repeat(5000) + 'a' + ')'.repeat(5000) + ' }}',
      '{{ ' + '['.repeat(5000) + ']'.repeat(5000) + ' }}',
      '{{ ' + 'a~'.repeat(40000) + 'a }}',
    ]) {
      assert.throws(
        () => validateTemplate(s),
        (e: unknown) => e instanceof TemplateLimitError && e.limit === 'work' && /too big to compile/.test(e.message),
      );
    }
    assert.deepEqual(validateTemplate('{{ ' + '('.repeat(1000) + 'a' + ')'.repeat(1000) + ' }}'), { success: true });
    assert.deepEqual(validateTemplate('{{ ' + '['.repeat(1000) + ']'.repeat(1000) + ' }}'), { success: true });
    assert.deepEqual(validateTemplate('< '.repeat(100000)), { success: true });
    assert.deepEqual(validateTemplate('<a '.repeat(50000)), { success: true });
  });

  test('every argument that sizes a result is bounded, filter by filter and function by function', () => {
    const big = "{% set s = 'x' %}{% for i in range(1, 18) %}{% set s = s ~ s %}{% endfor %}"; // s: 256 KiB
    const refused: [string, RegExp][] = [
      ["{{ 'ab'|split('', 0) }}", /chunk size and must be at least 1/],
      ["{{ 'ab'|split('', -1) }}", /chunk size and must be at least 1/],
      ["{{ 'ab'|split(',', 'x') }}", /split limit must be a whole number/],
      [`${big}{{ s|trim(s) }}`, /trim mask is limited to 256 characters/],
      ["{{ 'x'|trim(' ', 'middle') }}", /side must be/],
      ['{{ 1|number_format(536000000) }}', /decimals must be a whole number from -20 to 20/],
      ['{{ 1|number_format(2.5) }}', /decimals must be a whole number/],
      [`${big}{{ 1234567|number_format(0, '.', s) }}`, /thousands separator is limited to 256 characters/],
      [`${big}{{ 1.5|number_format(1, s) }}`, /decimal point is limited to 256 characters/],
      ["{{ 1|round(0, 'constructor') }}", /method must be "common", "floor" or "ceil"/],
      ['{{ 1|round(100) }}', /precision must be a whole number/],
      [`${big}{{ 'now'|date(s) }}`, /date format is limited to 256 characters/],
      [`${big}{{ 'now'|date('Y', s) }}`, /timezone is limited to 256 characters/],
      [`${big}{{ s|date('Y') }}`, /date is limited to 256 characters/],
      [`${big}{{ date(s) }}`, /date is limited to 256 characters/],
      [`${big}{{ 'x'|striptags(s) }}`, /allowed tags is limited to 256 characters/],
      ["{{ 'abc'|replace('a') }}", /replace expects a mapping/],
      ["{{ 'abc'|replace({'a': [1]}) }}", /every replacement must be a text or a number/],
      ['{{ range(1, 10, 0)|join }}', /step other than 0/],
      ['{{ range(1, 2000)|join }}', /limited to 1000 items/],
      ['{{ range(1, 2000, -1)|join }}', /limited to 1000 items/],
      ['{{ (1..5000)|join }}', /limited to 1000 items/],
      ["{{ range('a', 'z', 0.001)|join }}", /limited to 1000 items/],
      ['{{ cycle([], 1) }}', /non-empty list/],
      ["{{ cycle([1, 2], 'x') }}", /position must be a whole number/],
    ];
    assertRefused(refused);
    const tooBig: string[] = [
      `${big}{{ s|split('')|length }}`, // 262 144 items
      `${big}{{ (s ~ 'x')|split('x')|length }}`,
      `${big}{{ [s, s]|join }}`,
      `${big}{{ ['a', 'b']|join(s ~ s) }}`,
      `${big}{{ 'aaaa'|replace({'a': s}) }}`,
      `${big}{{ s|replace({'x': 'xx'}) }}`,
      `${big}{% for i in range(1, 5) %}{{ s }}{% endfor %}`, // 1.25 MiB of output
      `${big}{{ s ~ s }}`,
    ];
    for (const tpl of tooBig) {
      assert.throws(
        () => validateTemplate(tpl),
        (e: unknown) => e instanceof TemplateLimitError && e.limit === 'size',
        tpl,
      );
    }
    // Within the bounds, the filters work as in Twig.
    const ok: [string, string][] = [
      ["{{ 'abcde'|split('', 2)|join('|') }}", 'ab|cd|e'],
      ["{{ 'a,b,c,d'|split(',', 2)|join('|') }}", 'a|b,c,d'],
      ["{{ 'a,b,c,d'|split(',', -1)|join('|') }}", 'a|b|c'],
      ["{{ 'a,b'|split(',', 0)|join('|') }}", 'a,b'],
      [
        "{{ 'xxabxx'|trim('x') }}|{{ 'xxabxx'|trim('x', 'left') }}|{{ 'xxabxx'|trim('x', 'right') }}|{{ '  ab '|trim }}",
        'ab|abxx|xxab|ab',
      ],
      [
        "{{ 1234567.891|number_format(2, ',', '.') }}|{{ 1234.5|number_format }}|{{ 0.5|number_format(20)|length }}",
        '1.234.567,89|1,235|22',
      ],
      ["{{ 2.45|round(1) }}|{{ 2.45|round(1, 'floor') }}|{{ 2.41|round(1, 'ceil') }}", '2.5|2.4|2.5'],
      ["{{ 'abcabc'|replace({'a': 'x', 'bc': '$&'}) }}", 'x$&x$&'],
      ["{{ '<p>a<b>b</b><!-- c -->d<<i>script>e</p> 1 < 2'|striptags }}", 'abde 1 < 2'],
      ["{{ range(5, 1, 2)|join(',') }}|{{ range('a', 'e', 2)|join }}|{{ (3..1)|join }}", '5,3,1|ace|321'],
      ['{{ cycle([1, 2, 3], 4) }}{{ cycle([1, 2, 3], -1) }}', '23'],
      ["{{ max([1, 5, 3]) }}{{ min(4, 2) }}{{ ['a', 'b']|first }}{{ {'x': 1, 'y': 2}|last }}", '52a2'],
    ];
    for (const [tpl, out] of ok) assert.equal(renderTemplate(tpl, {}), out, tpl);
  });

  test('only allow-listed tests resolve; lookups never reach inherited members', () => {
    assertRefused([
      ['{% set t = 1 is valueOf %}{{ t.iterable }}', /Test "valueOf" is not allowed/],
      ["{{ '__proto__' is __lookupGetter__ }}", /Test "__lookupGetter__" is not allowed/],
      ["{{ 'abc'|replace({'a': (1 is valueOf).defined}) }}", /Test "valueOf" is not allowed/],
      ['{{ 1 is constructor }}', /Test "constructor" is not allowed/],
      ['{{ 1 is divisibleby(1) }}', /Test "divisibleby" is not allowed/],
      ["{{ {'_keys': ['constructor']}|first }}", /Key "_keys" is not allowed/],
      ["{{ {('_ke' ~ 'ys'): 1} }}", /Key "_keys" is not allowed/],
      ['{{ s[constructor:] }}', /Slice bounds must be whole numbers/],
      ["{{ 'a' matches '/(a+)+$/' }}", /"matches" operator is not allowed/],
    ]);
    assert.equal(
      renderTemplate(
        '{{ 1 is defined }}{{ x is defined }}{{ 3 is odd }}{{ [] is empty }}{{ 6 is divisible by(3) }}{{ 1 is same as(1) }}{{ l is iterable }}{{ null is none }}',
        { l: [1] },
      ),
      'truefalsetruetruetruetruetruetrue',
    );
    // Inside a loop the context is a plain object: inherited names still resolve to nothing.
    assert.equal(
      renderTemplate('{% for i in [1] %}[{{ loop.parent.x }}{{ loop.index }}]{% endfor %}', { x: 'y' }),
      '[y1]',
    );
  });

  test('JavaScript is refused', () => {
    for (const s of [
      '<script>alert(1)</script>',
      '<SCRIPT src="x"></SCRIPT>',
      '<a onclick="steal()">x</a>',
      '<img src=x onerror=alert(1)>',
      '<a href="javascript:alert(1)">x</a>',
      '<a href="JaVaScRiPt&#58;alert(1)">x</a>',
      '<div onmouseover = "x()">',
      '{% set o = "<" %}{% set c = ">" %}{{ o }}script{{ c }}alert(1){{ o }}/script{{ c }}',
      '<a href="{{ "java" ~ "script:x()" }}">x</a>',
    ]) {
      assert.deepEqual(
        validateTemplate(s),
        { success: false, error: 'JavaScript is not allowed in Twig templates.' },
        s,
      );
    }
  });

  test('date filter: PHP formats, UTC by default, localized names', () => {
    const ctx = { d: '2026-11-22 17:30:00' };
    assert.equal(renderTemplate('{{ d|date("F j, Y g:i a T") }}', ctx), 'November 22, 2026 5:30 pm UTC');
    assert.equal(
      renderTemplate('{{ d|date("l, j. F Y H:i", "Europe/Berlin") }}', ctx, 'de'),
      'Sonntag, 22. November 2026 18:30',
    );
    assert.equal(renderTemplate('{{ 86400|date("Y-m-d") }}', {}), '1970-01-02');
    assert.equal(renderTemplate('{{ "2026-03-01"|date("F") }}', {}, 'de'), 'März');
    assert.match(validateTemplate('{{ "now"|date("Y", "Nowhere/Zone") }}').error!, /Unknown timezone/);
  });

  test('normalisation strips tags inside braces and fixes spacing', () => {
    assert.equal(
      normalizeTemplate('{{<span>Appointment.customer_start_date</span>}}'),
      '{{ Appointment.customer_start_date }}',
    );
    assert.equal(normalizeTemplate('{%if  x   %}a{%endif%}'), '{% if x %}a{% endif %}');
    assert.equal(normalizeTemplate('{{ a&nbsp;|&nbsp;upper }}'), '{{ a | upper }}');
    assert.equal(renderTemplate('{{<b>name</b>|upper}}', { name: 'x' }), 'X');
  });

  test('validate never throws, whatever the input (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (s) => {
        const r = validateTemplate(s);
        return typeof r.success === 'boolean';
      }),
      { numRuns: 300 },
    );
    fc.assert(
      fc.property(
        fc.array(
          fc.constantFrom(
            '{{',
            '}}',
            '{%',
            '%}',
            'if',
            'for',
            'endif',
            'a',
            '.',
            '(',
            ')',
            '|',
            '"',
            '[',
            ']',
            ' ',
            'constructor',
            '_self',
            'x in y',
            '~',
          ),
          { maxLength: 20 },
        ),
        (parts) => {
          const r = validateTemplate(parts.join(''));
          return typeof r.success === 'boolean';
        },
      ),
      { numRuns: 500 },
    );
  });

  test('the post-render sanitiser removes script', () => {
    const html = sanitizeHtml(
      '<p onclick="x()">Hi <b>you</b><script>alert(1)</script><a href=" javascript:alert(1)">x</a><a href="https://a.example/?a=1&amp;b=2">ok</a><img src=x onerror=alert(1)><iframe src="https://evil"></iframe></p>',
    );
    assert.doesNotMatch(html, /script|onclick|onerror|javascript|iframe/i);
    assert.match(html, /<a href="https:\/\/a\.example\/\?a=1&amp;b=2">ok<\/a>/);
  });
});

for (const target of dbTargets()) {
  describe(`sched templates and previews (${target.name})`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(target);
    });
    after(async () => {
      await t.close();
    });
    const admin = fakeUser('administrator');

    test('templates/validate operation', async () => {
      const c = callerFor(t.app, admin);
      assert.deepEqual(await op.validateTemplateOp(c, 'Hi {{ x }}'), { success: true });
      assert.equal(((await op.validateTemplateOp(c, '{% if %}')) as { success: boolean }).success, false);
      assert.equal(((await op.validateTemplateOp(c, 42)) as { success: boolean }).success, false);
    });

    test('preview renders realistic example data, localized', async () => {
      const now = new Date('2026-11-22T10:15:00Z');
      const tpl =
        '{{ Appointment.customer_information.Name }}|{{ Appointment.customer_start_date }}|{{ Appointment.business_start_date }}|{{ Global.site_url }}|{{ add_to_calendar_link.gcal }}|{{ Appointment.AppointmentType.title }}|{{ "Date"|trans }}';
      const en = await renderPreview(t.app, 'en', tpl, { now });
      assert.equal(en.error, null);
      const parts = en.preview.split('|');
      assert.equal(parts[0], 'Alex Example');
      assert.equal(parts[1], 'November 23, 2026 6:00 am (EST)'); // customer timezone America/New_York
      assert.equal(parts[2], 'November 23, 2026 12:00 pm (CET)'); // business timezone Europe/Berlin
      assert.equal(parts[3], 'http://localhost:8080');
      assert.match(parts[4], /^https:\/\/calendar\.google\.com\/calendar\/render\?action=TEMPLATE&amp;text=/);
      assert.equal(parts[6], 'Date');
      const de = await renderPreview(t.app, 'de', tpl, { now, appointmentTypeId: 7 });
      const dparts = de.preview.split('|');
      assert.equal(dparts[0], 'Erika Mustermann');
      assert.match(dparts[2], /^November 23, 2026 12:00 pm \(MEZ\)$/);
      assert.equal(dparts[5], 'Erstberatung');
      assert.equal(dparts[6], 'Datum');
    });

    test('preview: template errors become an escaped HTML summary', async () => {
      const c = callerFor(t.app, admin);
      const { body } = unwrap(await op.previewOp(c, 'line one\n{{ a|nosuch("&lt;b&gt;") }}', {}));
      assert.equal(body.response_code, 200);
      assert.match(body.data.preview, /line 2/);
      assert.match(body.data.preview, /Filter &quot;nosuch&quot; is not allowed/);
      assert.match(body.data.preview, /&lt;b&gt;/);
      assert.doesNotMatch(body.data.preview, /<b>/);
      const js = unwrap(await op.previewOp(c, '<script>alert(1)</script>', {})).body;
      assert.match(js.data.preview, /JavaScript is not allowed/);
      assert.doesNotMatch(js.data.preview, /<script/);
      const esc = unwrap(await op.previewOp(c, '{{ Appointment.public_edit_url[("constr" ~ "uctor")] }}', {})).body;
      assert.match(esc.data.preview, /not allowed/);
    });

    test('preview: example data, appointment ids, bad input', async () => {
      const c = callerFor(t.app, admin);
      const ok = unwrap(await op.previewOp(c, DEMO_NOTIFICATIONS[0].message, { appointment_type_id: '3' })).body;
      assert.equal(ok.response_code, 200);
      assert.match(ok.data.preview, /Alex Example/);
      const missing = unwrap(await op.previewOp(c, 'x', { appointment_id: '5' }));
      assert.equal(missing.status, 404);
      assert.equal(missing.body.error, 'Appointment ID Not Found');
      await assert.rejects(op.previewOp(c, 'x', { appointment_type_id: 'abc' }), (e: RestError) => e.status === 400);
      await assert.rejects(op.previewOp(c, ['x'], {}), (e: RestError) => e.status === 400);
    });
  });
}
