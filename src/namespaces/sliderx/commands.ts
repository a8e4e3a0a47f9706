// `content-site slider import <file.json>` and `content-site slider export [<slider>]`.
import fs from 'node:fs';
import type { CliCommand, CliContext } from '../../cli/command.ts';
import { CliError } from '../../cli/command.ts';
import { parseCommandArgs } from '../../cli/args.ts';
import { DEFAULT_SETTINGS, DEFAULT_SLIDE_PARAMS, LAYER_TYPES, LAYOUTS, TRANSITIONS } from './model.ts';
import { parseImport } from './import-check.ts';
import { exportSliders, getSliderByAlias, getSliderById } from './store.ts';
import { importSliders } from './service.ts';
import { errorCode } from '../../util.ts';

const MAX_FILE = 10 * 1024 * 1024;

/** Lines of the file format: the JSON on the left, what it means aligned on the right. */
function formatRows(rows: [string, string][]): string[] {
  const width = Math.max(...rows.filter(([, note]) => note).map(([json]) => json.length)) + 3;
  return rows.map(([json, note]) => (note ? json.padEnd(width) + note : json));
}

export const sliderImportCommand: CliCommand = {
  name: 'slider import',
  summary: 'Import sliders from a JSON file (all or nothing; sliders are matched by alias and replaced).',
  description: [
    'The file is checked completely before anything is written; every problem is named with its place in the file ' +
      '(e.g. sliders[0].slides[2].image). A slider whose alias exists replaces that slider with its slides. ' +
      'slider export writes files in this format.',
  ],
  args: {
    positionals: [
      { name: 'file.json', help: `The JSON file (at most ${MAX_FILE / 1024 / 1024} MB), in the format below.` },
    ],
  },
  sections: [
    {
      title: 'File format',
      lines: [
        '{"version": 1, "sliders": [<slider>, …]}, or one <slider> object',
        '',
        '<slider>: {',
        ...formatRows([
          ['  "alias": "home",', 'required: letters, digits, _ and -, not only digits'],
          ['  "title": "Home",', 'required; any text may be {"en": "…", "de": "…"}'],
          ['  "settings": {', 'optional; the defaults:'],
          [`    "layout": "${DEFAULT_SETTINGS.layout}",`, LAYOUTS.join(' | ')],
          [`    "width": ${DEFAULT_SETTINGS.width}, "height": ${DEFAULT_SETTINGS.height},`, 'pixels, 1 to 10000'],
          [
            `    "autoplay": ${DEFAULT_SETTINGS.autoplay}, "delay": ${DEFAULT_SETTINGS.delay},`,
            'delay: ms per slide, 100 to 600000',
          ],
          ['    "navigation": {"arrows": true, "bullets": true, "thumbnails": false},', ''],
          [`    "modal": {"cover": true, "sp": ${DEFAULT_SETTINGS.modal.sp},`, 'sp: fade time, 0 to 10 s'],
          [`      "bg": "${DEFAULT_SETTINGS.modal.bg}"}`, 'a CSS colour'],
          ['  },', ''],
          ['  "slides": [<slide>, …]', 'optional, at most 200'],
          ['}', ''],
          ['<slide>: {', 'every key optional'],
          ['  "title": "…", "image": "https://…",', ''],
          ['  "thumb": "https://…", "link": "https://…",', ''],
          [`  "params": {"transition": "${DEFAULT_SLIDE_PARAMS.transition}",`, TRANSITIONS.join(' | ')],
          [`             "duration": ${DEFAULT_SLIDE_PARAMS.duration}},`, 'ms, 0 to 60000'],
          ['  "layers": [<layer>, …]', 'at most 50'],
          ['}', ''],
          ['<layer>: {', ''],
          ['  "id": "headline",', 'required: 1 to 64 letters, digits, _ and -'],
          ['  "type": "text",', `required: ${LAYER_TYPES.join(' | ')}`],
          ['  "content": "…",', 'text, button: the text; image, video: the URL'],
          ['  "link": "https://…",', 'button only'],
          ['  "alt": "…",', 'image only'],
          ['  "position": {"x": 0, "y": 0}', 'pixels, -10000 to 10000'],
          ['}', ''],
        ]),
        'Unknown keys are refused.',
      ],
    },
  ],
  examples: [
    { command: 'slider import sliders.json', help: 'Imports the sliders of the file.' },
    { command: 'slider export home > home.json', help: 'A file to start from: the slider "home" as exported.' },
  ],
  async run(args: string[], ctx: CliContext): Promise<number> {
    const file = parseCommandArgs(this, args).positionals[0]!;
    let text: string;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) throw new CliError(`${file} is not a file`);
      if (stat.size > MAX_FILE) throw new CliError(`${file} is larger than ${MAX_FILE / 1024 / 1024} MB`);
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`cannot read ${file}: ${errorCode(err)}`);
    }
    let doc: unknown;
    try {
      doc = JSON.parse(text);
    } catch (err) {
      throw new CliError(`${file} is not valid JSON: ${(err as Error).message}`);
    }
    const { sliders, issues } = parseImport(doc);
    if (issues.length) {
      const shown = issues.slice(0, 10).join('; ');
      throw new CliError(
        `${file} is not a valid slider file (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${shown}${issues.length > 10 ? '; …' : ''}`,
      );
    }
    const app = await ctx.openApp();
    const results = await importSliders(app, sliders);
    for (const r of results)
      ctx.stdout.write(`${r.action} slider ${r.alias} (id ${r.id}, ${r.slides} slide${r.slides === 1 ? '' : 's'})\n`);
    return 0;
  },
};

export const sliderExportCommand: CliCommand = {
  name: 'slider export',
  summary: 'Write all sliders, or one (alias or id), as JSON to standard output.',
  description: ['The output is in the file format of slider import (see content-site help slider import).'],
  args: { positionals: [{ name: 'slider', optional: true, help: 'The alias or id of one slider (default: all).' }] },
  examples: [
    { command: 'slider export > sliders.json', help: 'All sliders.' },
    { command: 'slider export home', help: 'The slider with the alias "home".' },
  ],
  async run(args: string[], ctx: CliContext): Promise<number> {
    const { positionals } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    let doc;
    if (positionals.length === 1) {
      const key = positionals[0]!;
      const slider = /^\d+$/.test(key)
        ? await getSliderById(app, key.length > 16 ? 0 : Number(key))
        : await getSliderByAlias(app, key);
      if (!slider) throw new CliError(`no slider "${key}"`);
      doc = await exportSliders(app, [slider]);
    } else {
      doc = await exportSliders(app);
    }
    ctx.stdout.write(JSON.stringify(doc, null, 2) + '\n');
    return 0;
  },
};

export const sliderCommands: CliCommand[] = [sliderImportCommand, sliderExportCommand];
