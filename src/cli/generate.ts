// Bulk data for benchmarks and load tests: the `<noun> generate --count N` commands modules
// contribute (`strings generate` of i18n-st, `jobs generate` of i18n-tm).
import { parseCommandArgs, wholeNumberOption } from './args.ts';
import type { CliCommand } from './command.ts';
import type { AppServices } from '../site/services.ts';

const MAX_COUNT = 1_000_000;

export function generateCommand(
  noun: string,
  summary: string,
  generate: (app: AppServices, count: number) => Promise<number>,
): CliCommand {
  return {
    name: `${noun} generate`,
    summary,
    description: ['For benchmarks and load tests, not for a live site.'],
    args: {
      options: { count: { type: 'string', value: 'n', required: true, help: `How many to add, 0 to ${MAX_COUNT}.` } },
    },
    examples: [{ command: `${noun} generate --count 10000`, help: `Adds 10,000 ${noun}.` }],
    async run(args, ctx) {
      const { strings } = parseCommandArgs(this, args);
      const count = wholeNumberOption(strings.count, 'count', { min: 0, max: MAX_COUNT });
      const started = performance.now();
      const created = await generate(await ctx.openApp(), count);
      ctx.stdout.write(`Added ${created} ${noun} in ${((performance.now() - started) / 1000).toFixed(1)} s.\n`);
      return 0;
    },
  };
}
