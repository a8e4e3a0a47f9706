// `content-site events generate --count N [--days D] [--force]` (realistic activity-log data,
// marked as generated, with a progress bar), `events purge` and `events clear` (remove events),
// `events backfill` (import existing users and content) and `events index [--rebuild]` (the
// context index, now rather than in the server's background; generate builds it too).
import cliProgress from 'cli-progress';
import { CliError, type CliCommand, type CliContext } from '../../cli/command.ts';
import { parseCommandArgs, wholeNumberOption } from '../../cli/args.ts';
import { CLI_ORIGIN } from '../../site/activity.ts';
import type { AppServices } from '../../site/services.ts';
import { generateEvents } from './bulk/generate.ts';
import { GENERATED_KEY } from './bulk/scenarios.ts';
import { countRealActivity, purgeAndLog } from './write/maintenance.ts';
import { ensureBackfill } from './write/backfill.ts';
import { clearContextIndex, contextIndexProgress, indexBlocks } from './index/build.ts';
import { BLOCK_EVENTS } from './index/terms.ts';

const MAX_COUNT = 50_000_000;

/** Blocks per transaction: a serving process waits for at most this many blocks' work. */
const INDEX_BLOCKS_AT_ONCE = 16;

/** Runs the work with a progress bar of `total` units on stderr (a line every 5 s when it is not a terminal). */
async function withProgressBar<T>(
  ctx: CliContext,
  unit: string,
  total: number,
  work: (update: (done: number) => void) => Promise<T>,
): Promise<T> {
  const interactive = Boolean((ctx.stderr as NodeJS.WriteStream).isTTY);
  const bar = new cliProgress.SingleBar(
    {
      format: `${unit} {bar} {percentage}% | {value}/{total} | {eta_formatted} left`,
      stream: ctx.stderr,
      noTTYOutput: !interactive,
      notTTYSchedule: 5000,
    },
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
  summary: 'Add N realistic, invented activity-log events spread over the last D days (demos, benchmarks).',
  description: [
    `Every generated event carries the context key ${GENERATED_KEY} = 1, so that events purge --generated removes them again. ` +
      'A log that already holds real activity (events of logged-in users or visitors that were not generated) is refused ' +
      'unless --force: invented logins and edits would be mixed into the site’s audit trail.',
  ],
  args: {
    options: {
      count: { type: 'string', value: 'n', required: true, help: `How many events, 1 to ${MAX_COUNT}.` },
      days: { type: 'string', value: 'd', help: 'Spread them over the last D days (default 30).' },
      force: { type: 'boolean', help: 'Add them even to a log with real activity.' },
    },
  },
  examples: [
    { command: 'events generate --count 1000000 --days 365', help: 'A year of a busy site, for benchmarks.' },
    { command: 'events purge --generated', help: 'Removes them again.' },
  ],
  async run(args, ctx) {
    const { strings, flags } = parseCommandArgs(this, args);
    const count = wholeNumberOption(strings.count, 'count', { min: 1, max: MAX_COUNT });
    const days = wholeNumberOption(strings.days, 'days', { min: 1, max: 36_500 }, 30);
    const app = await ctx.openApp();
    if (!flags.force) {
      const real = await countRealActivity(app);
      if (real) {
        throw new CliError(
          `the activity log holds real activity (${real} events of people); generated events would be mixed into it. ` +
            'Generate on a database of its own, or add --force (events purge --generated removes them later).',
        );
      }
    }
    const started = performance.now();
    await withProgressBar(ctx, 'events', count, (update) => generateEvents(app, { count, days, onProgress: update }));
    const seconds = (performance.now() - started) / 1000;
    ctx.stdout.write(
      `Added ${count} events over the last ${days} days in ${seconds.toFixed(1)} s (${Math.round(count / seconds)} events/s).\n`,
    );
    // A bulk load builds its context index too: a server under steady traffic would otherwise
    // answer context searches from the rows for minutes (about 12 s a million events here).
    await indexCompleteBlocks(ctx, app);
    return 0;
  },
};

/** Indexes every complete block of events not yet in the context index, with a progress bar and a closing line. */
async function indexCompleteBlocks(ctx: CliContext, app: AppServices): Promise<void> {
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
  ctx.stdout.write(
    `Indexed ${done} block${done === 1 ? '' : 's'} of ${BLOCK_EVENTS} events in ${seconds.toFixed(1)} s; events up to id ${Math.max(0, now.indexed * BLOCK_EVENTS - 1)} are indexed.\n`,
  );
}

/** `--before 2026-01-01` or `--before "2026-01-01 12:00:00"` (UTC) as `YYYY-MM-DD HH:MM:SS`. */
function beforeOption(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value.trim());
  const text = m ? `${m[1]} ${m[2] ?? '00'}:${m[3] ?? '00'}:${m[4] ?? '00'}` : '';
  // A real date and time: Date would roll 2026-02-30 over into March.
  const date = new Date(`${text.replace(' ', 'T')}Z`);
  if (!m || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 19) !== text.replace(' ', 'T'))
    throw new CliError(`--before must be a date (YYYY-MM-DD) or a time (YYYY-MM-DD HH:MM[:SS]) in UTC, got "${value}"`);
  return text;
}

export const eventsPurgeCommand: CliCommand = {
  name: 'events purge',
  summary: 'Remove generated events, or events older than a date, from the activity log.',
  description: [
    'With both options, only generated events before the date. The removal is logged as one event. ' +
      'To remove every event use events clear.',
  ],
  args: {
    options: {
      generated: { type: 'boolean', help: 'Only events made by events generate or the demo content.' },
      before: {
        type: 'string',
        value: 'date',
        help: 'Only events dated before this UTC date or time (YYYY-MM-DD[ HH:MM[:SS]]).',
      },
    },
  },
  examples: [
    { command: 'events purge --generated', help: 'Removes every generated event.' },
    { command: 'events purge --before 2026-01-01', help: 'Removes the events of 2025 and earlier.' },
  ],
  async run(args, ctx) {
    const { strings, flags } = parseCommandArgs(this, args);
    if (!flags.generated && strings.before === undefined)
      throw new CliError('events purge needs --generated or --before <date> (events clear removes every event)');
    const filter = {
      generated: flags.generated,
      before: strings.before === undefined ? undefined : beforeOption(strings.before),
    };
    const removed = await purgeAndLog(await ctx.openApp(), filter, CLI_ORIGIN);
    ctx.stdout.write(`Removed ${removed} event${removed === 1 ? '' : 's'}.\n`);
    return 0;
  },
};

export const eventsClearCommand: CliCommand = {
  name: 'events clear',
  summary: 'Clear the activity log: remove every event (the original plugin’s “Clear log”).',
  description: ['The clearing is logged as one event, which is then all the log holds.'],
  args: { options: { yes: { type: 'boolean', required: true, help: 'Confirms that every event is to be removed.' } } },
  examples: [{ command: 'events clear --yes', help: 'Empties the log.' }],
  async run(args, ctx) {
    parseCommandArgs(this, args);
    const removed = await purgeAndLog(await ctx.openApp(), {}, CLI_ORIGIN);
    ctx.stdout.write(`Cleared the activity log: removed ${removed} event${removed === 1 ? '' : 's'}.\n`);
    return 0;
  },
};

export const eventsBackfillCommand: CliCommand = {
  name: 'events backfill',
  summary: 'Import existing users, pages and posts into the activity log (once per site).',
  description: [
    'What a new site’s activity log does on its first look: the last 60 days, at most 100 each of users, pages and posts.',
  ],
  args: {},
  examples: [{ command: 'events backfill', help: 'Records the existing users and content, once.' }],
  async run(args, ctx) {
    parseCommandArgs(this, args);
    const status = await ensureBackfill(await ctx.openApp());
    for (const [type, s] of Object.entries(status.type_stats))
      ctx.stdout.write(`${type}: ${s.imported} of ${s.available} in the log\n`);
    return 0;
  },
};

export const eventsIndexCommand: CliCommand = {
  name: 'events index',
  summary:
    'Build the context index of the activity log’s context searches now (events generate builds it too; serving processes build it in the background).',
  description: [
    "The index serves the events' context_filters and metadata_search (search has its own index, kept on write).",
  ],
  args: {
    options: { rebuild: { type: 'boolean', help: 'Start over (after processes of an older version indexed blocks).' } },
  },
  examples: [{ command: 'events index', help: 'Indexes every complete block of events.' }],
  async run(args, ctx) {
    const { flags } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    if (flags.rebuild) await clearContextIndex(app.db, app.dialect);
    await indexCompleteBlocks(ctx, app);
    return 0;
  },
};

export const eventsCommands: CliCommand[] = [
  eventsGenerateCommand,
  eventsPurgeCommand,
  eventsClearCommand,
  eventsBackfillCommand,
  eventsIndexCommand,
];
