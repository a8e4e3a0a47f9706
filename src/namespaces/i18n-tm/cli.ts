// `content-site jobs generate --count N`: bulk translation jobs for the benchmark.
// Register in src/cli/commands.ts: `import { jobsGenerateCommand } from '../namespaces/i18n-tm/cli.ts';`
// and add `jobsGenerateCommand` to COMMANDS.
import type { CliCommand, CliContext } from '../../cli/command.ts';
import { CliError } from '../../cli/command.ts';
import { generateJobs } from './seed.ts';

const MAX_COUNT = 1_000_000;

export const jobsGenerateCommand: CliCommand = {
  name: 'jobs generate',
  usage: 'jobs generate --count N',
  summary: 'Insert N generated translation jobs (with fields, spread over the demo translators) for benchmarks',
  async run(args: string[], ctx: CliContext): Promise<number> {
    let count: number | null = null;
    for (let i = 0; i < args.length; i++) {
      const arg = args[i]!;
      const value = arg.startsWith('--count=') ? arg.slice('--count='.length) : arg === '--count' ? args[++i] : undefined;
      if (value === undefined) throw new CliError(`unknown argument ${arg}; usage: jobs generate --count N`);
      if (!/^\d+$/.test(value) || Number(value) > MAX_COUNT) throw new CliError(`--count must be an integer from 0 to ${MAX_COUNT}, got ${value}`);
      count = Number(value);
    }
    if (count === null) throw new CliError('usage: jobs generate --count N');
    const app = await ctx.openApp();
    const started = Date.now();
    const created = await generateJobs(app, count);
    ctx.stdout.write(`generated ${created} translation job${created === 1 ? '' : 's'} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
    return 0;
  },
};
