// `content-site events generate --count N [--days D]` (realistic activity-log data, with a
// progress bar), `content-site events backfill` (import existing users and content) and
// `content-site events index [--rebuild]` (the context index, now rather than in the server's idle time).
import cliProgress from 'cli-progress';
import type { CliCommand, CliContext } from '../../cli/command.ts';
import { parseCommandArgs, wholeNumberOption } from '../../cli/args.ts';
import { generateEvents } from './bulk/generate.ts';
import { ensureBackfill } from './write/backfill.ts';
import { clearContextIndex, contextIndexProgress, indexBlocks } from './index/build.ts';
import { BLOCK_EVENTS } from './index/terms.ts';

const MAX_COUNT = 50_000_000;

/** Runs the work with a progress bar of `total` units on stderr (a line every 5 s when it is not a terminal). */
async function withProgressBar<T>(ctx: CliContext, unit: string, total: number, work: (update: (done: number) => void) => Promise<T>): Promise<T> {
  const interactive = Boolean((ctx.stderr as NodeJS.WriteStream).isTTY);
  const bar = new cliProgress.SingleBar(
    { format: `${unit} {bar} {percentage}% | {value}/{total} | {eta_formatted} left`, stream: ctx.stderr, noTTYOutput: !interactive, notTTYSchedule: 5000 },
    cliProgress.Presets.shades_classic,
  );
  bar.start(total, 0);
  try {
    return await work((done) => bar.update(done));
  } finally {
    bar.stop();
  }
}

export const eventsGenerateCommand: CliCommand = {
  name: 'events generate',
  usage: 'events generate --count N [--days D]',
  summary: 'Add N realistic activity-log events spread over the last D days (default 30)',
  async run(args, ctx) {
    const { strings } = parseCommandArgs(this, args, { options: { count: { type: 'string' }, days: { type: 'string' } }, required: ['count'] });
    const count = wholeNumberOption(strings.count, 'count', { min: 1, max: MAX_COUNT });
    const days = wholeNumberOption(strings.days, 'days', { min: 1, max: 36_500 }, 30);
    const app = await ctx.openApp();
    const started = performance.now();
    await withProgressBar(ctx, 'events', count, (update) => generateEvents(app, { count, days, onProgress: update }));
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

/** Blocks per transaction: a serving process waits for at most this many blocks' work. */
const INDEX_BLOCKS_AT_ONCE = 16;

export const eventsIndexCommand: CliCommand = {
  name: 'events index',
  usage: 'events index [--rebuild]',
  summary:
    "Index the events' contexts and search texts for context_filters, metadata_search and search now (serving processes do it while idle); " +
    '--rebuild starts over (after processes of an older version indexed blocks)',
  async run(args, ctx) {
    const { flags } = parseCommandArgs(this, args, { options: { rebuild: { type: 'boolean' } } });
    const app = await ctx.openApp();
    if (flags.rebuild) await clearContextIndex(app.db, app.dialect);
    const { indexed, complete } = await contextIndexProgress(app.db);
    const started = performance.now();
    let done = 0;
    await withProgressBar(ctx, 'blocks', Math.max(0, complete - indexed), async (update) => {
      for (;;) {
        const n = await indexBlocks(app.db, app.dialect, INDEX_BLOCKS_AT_ONCE);
        if (n === 0) return;
        update((done += n));
      }
    });
    const now = await contextIndexProgress(app.db);
    const seconds = (performance.now() - started) / 1000;
    ctx.stdout.write(`Indexed ${done} block${done === 1 ? '' : 's'} of ${BLOCK_EVENTS} events in ${seconds.toFixed(1)} s; events up to id ${Math.max(0, now.indexed * BLOCK_EVENTS - 1)} are indexed.\n`);
    return 0;
  },
};

export const eventsCommands: CliCommand[] = [eventsGenerateCommand, eventsBackfillCommand, eventsIndexCommand];
