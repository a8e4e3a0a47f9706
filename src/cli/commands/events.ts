// `content-site events generate --count N [--days D]` (realistic activity-log data, with a
// progress bar) and `content-site events backfill` (import existing users and content).
import cliProgress from 'cli-progress';
import type { CliCommand } from '../command.ts';
import { parseCommandArgs, wholeNumberOption } from '../args.ts';
import { generateEvents } from '../../namespaces/history/generate.ts';
import { ensureBackfill } from '../../namespaces/history/backfill.ts';

const MAX_COUNT = 50_000_000;

export const eventsGenerateCommand: CliCommand = {
  name: 'events generate',
  usage: 'events generate --count N [--days D]',
  summary: 'Add N realistic activity-log events spread over the last D days (default 30)',
  async run(args, ctx) {
    const { strings } = parseCommandArgs(this, args, { options: { count: { type: 'string' }, days: { type: 'string' } }, required: ['count'] });
    const count = wholeNumberOption(strings.count, 'count', { min: 1, max: MAX_COUNT });
    const days = wholeNumberOption(strings.days, 'days', { min: 1, max: 36_500 }, 30);
    const app = await ctx.openApp();
    const interactive = Boolean((ctx.stderr as NodeJS.WriteStream).isTTY);
    const bar = new cliProgress.SingleBar(
      { format: 'events {bar} {percentage}% | {value}/{total} | {eta_formatted} left', stream: ctx.stderr, noTTYOutput: !interactive, notTTYSchedule: 5000 },
      cliProgress.Presets.shades_classic,
    );
    const started = performance.now();
    bar.start(count, 0);
    try {
      await generateEvents(app, { count, days, onProgress: (written) => bar.update(written) });
    } finally {
      bar.stop();
    }
    const seconds = (performance.now() - started) / 1000;
    ctx.stdout.write(`Added ${count} events over the last ${days} days in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} events/s).\n`);
    return 0;
  },
};

export const eventsBackfillCommand: CliCommand = {
  name: 'events backfill',
  usage: 'events backfill',
  summary: 'Import existing users, pages and posts into the activity log (once per site)',
  async run(args, ctx) {
    parseCommandArgs(this, args, {});
    const status = await ensureBackfill(await ctx.openApp());
    for (const [type, s] of Object.entries(status.type_stats)) ctx.stdout.write(`${type}: ${s.imported} of ${s.available} in the log\n`);
    return 0;
  },
};

export const eventsCommands: CliCommand[] = [eventsGenerateCommand, eventsBackfillCommand];
