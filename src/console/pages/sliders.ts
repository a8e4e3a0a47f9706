// Sliders at /cms-admin/admin.php?page=sliderx-sliders: the list, one slider's slides previewed
// in both languages (the public `sliderx/sliders/<alias>` answer of each language), the order
// of its slides (moved up or down), export as a file and import in the CLI's format
// (`content-site slider export|import`). sliderx has no write routes: like the CLI, the page
// uses the feature's functions (sliderx/api.ts), which check the document whole and record
// each written slider in the activity log with the signed-in user.
import type { FastifyReply } from 'fastify';
import {
  exportSliders,
  getSlider,
  getSliderByAlias,
  importSliders,
  listSliders,
  localize,
  parseImport,
} from '../../namespaces/sliderx/api.ts';
import type { Lang } from '../../rest/types.ts';
import { fmt } from '../../web/api.ts';
import type { ConsoleContext, ConsolePage, Notice } from '../context.ts';
import { text } from '../context.ts';
import { ADMIN_PHP, pagePath } from '../pages.ts';

export const SLIDERS_PAGE = 'sliderx-sliders';
const LANGS: Lang[] = ['en', 'de'];

interface PreviewSlide {
  id: number;
  title: string;
  image: string;
  link: string;
  layers: { id: string; type: string; content: string }[];
}

function pageUrl(ctx: ConsoleContext, query: Record<string, string> = {}, hash = ''): string {
  return ctx.url(pagePath(slidersPage, query)) + hash;
}

async function showPage(ctx: ConsoleContext, notices: Notice[], status = 200, importText = ''): Promise<FastifyReply> {
  const { t } = ctx;
  const done = text(ctx.query.done);
  if (done === 'moved') notices.push({ kind: 'success', text: t.slMoved });
  if (done === 'imported')
    notices.push({ kind: 'success', text: fmt(t.slImported, { count: Number(text(ctx.query.count)) || 0 }) });
  const sliders = await listSliders(ctx.app);
  const alias = text(ctx.query.slider) || sliders[0]?.alias || '';
  const current = sliders.find((s) => s.alias === alias);
  if (text(ctx.query.slider) && !current) notices.push({ kind: 'error', text: t.slNotFound });
  let preview = null;
  if (current) {
    const answers = await Promise.all(
      LANGS.map((lang) => getSlider(ctx.app, current.alias, { aliasFlag: true }, lang)),
    );
    const slidesOf = (i: number) => answers[i]!.slides as PreviewSlide[];
    preview = {
      alias: current.alias,
      title: localize(current.title, ctx.lang),
      exportUrl: pageUrl(ctx, { download: 'export', slider: current.alias }),
      slides: slidesOf(0).map((slide, i) => ({
        id: slide.id,
        position: i + 1,
        first: i === 0,
        last: i === slidesOf(0).length - 1,
        languages: LANGS.map((lang, l) => {
          const s = slidesOf(l)[i]!;
          return {
            lang,
            name: t[lang === 'en' ? 'slEnglish' : 'slGerman'],
            title: s.title,
            image: s.image,
            link: s.link,
            layers: s.layers.map((x) => `${x.type}: ${x.content}`),
          };
        }),
        upLabel: fmt(t.slMoveUpLabel, { title: slide.title }),
        downLabel: fmt(t.slMoveDownLabel, { title: slide.title }),
      })),
    };
  }
  return ctx.html(
    'sliders.twig',
    t.slTitle,
    {
      notices,
      csrf: await ctx.csrf(),
      postUrl: pageUrl(ctx, current ? { slider: current.alias } : {}),
      sliders: sliders.map((s) => ({
        alias: s.alias,
        title: localize(s.title, ctx.lang),
        slides: s.slideCount,
        url: pageUrl(ctx, { slider: s.alias }),
        current: s === current,
      })),
      preview,
      exportAllUrl: pageUrl(ctx, { download: 'export' }),
      importText,
    },
    status,
  );
}

/** The export file of one slider or of all (the CLI's `slider export`). */
async function sendExport(ctx: ConsoleContext): Promise<FastifyReply> {
  const alias = text(ctx.query.slider);
  const one = alias ? await getSliderByAlias(ctx.app, alias) : null;
  if (alias && !one) return showPage(ctx, [], 404);
  const doc = await exportSliders(ctx.app, one ? [one] : undefined);
  return ctx.reply
    .code(200)
    .headers({
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Disposition': `attachment; filename="${one ? `slider-${one.alias}` : 'sliders'}.json"`,
      'Cache-Control': 'no-store',
      'X-Content-Type-Options': 'nosniff',
    })
    .send(JSON.stringify(doc, null, 2) + '\n');
}

async function act(ctx: ConsoleContext): Promise<FastifyReply> {
  if (!(await ctx.csrfOk())) return ctx.csrfFailed();
  const { t } = ctx;
  const action = text(ctx.body.action);
  if (action === 'import') {
    const content = text(ctx.body.content);
    let doc: unknown;
    try {
      doc = JSON.parse(content);
    } catch (err) {
      return showPage(
        ctx,
        [{ kind: 'error', text: fmt(t.slNotJson, { message: (err as Error).message }) }],
        400,
        content,
      );
    }
    const { sliders, issues } = parseImport(doc);
    if (issues.length)
      return showPage(
        ctx,
        [{ kind: 'error', text: fmt(t.slInvalid, { problems: issues.slice(0, 10).join('; ') }) }],
        400,
        content,
      );
    const results = await importSliders(ctx.app, sliders, ctx.origin);
    return ctx.redirect(
      pageUrl(ctx, { slider: results[0]?.alias ?? '', done: 'imported', count: String(results.length) }),
    );
  }
  if (action === 'move') {
    // The slider exported, its slides reordered, imported again: ids stay, positions change.
    const slider = await getSliderByAlias(ctx.app, text(ctx.body.slider));
    const id = Number(text(ctx.body.slide));
    const step = text(ctx.body.direction) === 'up' ? -1 : 1;
    if (!slider) return showPage(ctx, [{ kind: 'error', text: t.slNotFound }], 404);
    const data = (await exportSliders(ctx.app, [slider])).sliders[0]!;
    const from = data.slides.findIndex((s) => s.id === id);
    const to = from + step;
    if (from < 0 || to < 0 || to >= data.slides.length)
      return showPage(ctx, [{ kind: 'error', text: t.badAction }], 400);
    [data.slides[from], data.slides[to]] = [data.slides[to]!, data.slides[from]!];
    await importSliders(ctx.app, [data], ctx.origin);
    return ctx.redirect(pageUrl(ctx, { slider: slider.alias, done: 'moved' }, `#slide-${id}`));
  }
  return showPage(ctx, [{ kind: 'error', text: t.badAction }], 400);
}

export const slidersPage: ConsolePage = {
  path: ADMIN_PHP,
  adminPage: SLIDERS_PAGE,
  capability: 'manage_options',
  title: 'slTitle',
  navOrder: 65,
  handle: (ctx) =>
    ctx.isPost ? act(ctx) : text(ctx.query.download) === 'export' ? sendExport(ctx) : showPage(ctx, []),
};
