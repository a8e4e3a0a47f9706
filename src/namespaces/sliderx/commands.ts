// `content-site slider import <file.json>` and `content-site slider export [<slider>]`.
import fs from 'node:fs';
import type { CliCommand, CliContext } from '../../cli/command.ts';
import { CliError } from '../../cli/command.ts';
import { parseImport } from './model.ts';
import { exportSliders, getSliderByAlias, getSliderById, importSliders } from './store.ts';

const MAX_FILE = 10 * 1024 * 1024;
const CLI_ORIGIN = { user: null, ip: '127.0.0.1', initiator: 'cms_cli' as const };

export const sliderImportCommand: CliCommand = {
  name: 'slider import',
  usage: 'slider import <file.json>',
  summary: 'Import sliders from a JSON file (all or nothing; sliders are matched by alias and replaced)',
  async run(args: string[], ctx: CliContext): Promise<number> {
    if (args.length !== 1) throw new CliError('usage: slider import <file.json>');
    const file = args[0]!;
    let text: string;
    try {
      const stat = fs.statSync(file);
      if (!stat.isFile()) throw new CliError(`${file} is not a file`);
      if (stat.size > MAX_FILE) throw new CliError(`${file} is larger than ${MAX_FILE / 1024 / 1024} MB`);
      text = fs.readFileSync(file, 'utf8');
    } catch (err) {
      if (err instanceof CliError) throw err;
      throw new CliError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
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
      throw new CliError(`${file} is not a valid slider file (${issues.length} problem${issues.length === 1 ? '' : 's'}): ${shown}${issues.length > 10 ? '; …' : ''}`);
    }
    const app = await ctx.openApp();
    const results = await importSliders(app, sliders, CLI_ORIGIN);
    for (const r of results) ctx.stdout.write(`${r.action} slider ${r.alias} (id ${r.id}, ${r.slides} slide${r.slides === 1 ? '' : 's'})\n`);
    return 0;
  },
};

export const sliderExportCommand: CliCommand = {
  name: 'slider export',
  usage: 'slider export [<slider>]',
  summary: 'Write all sliders, or one (alias or id), as JSON to standard output',
  async run(args: string[], ctx: CliContext): Promise<number> {
    if (args.length > 1) throw new CliError('usage: slider export [<slider>]');
    const app = await ctx.openApp();
    let doc;
    if (args.length === 1) {
      const key = args[0]!;
      const slider = /^\d+$/.test(key) ? await getSliderById(app, key.length > 16 ? 0 : Number(key)) : await getSliderByAlias(app, key);
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
