// `content-site import wordpress --from mysql://… [--prefix wp_] [--dry-run] [--only …]
// [--on-conflict skip|rename|overwrite] [--include-trash] [--uploads DIR] [--scratch mysql://…]`
import fs from 'node:fs';
import { parseCommandArgs } from '../../cli/args.ts';
import { CLI_ORIGIN } from '../../site/activity.ts';
import { CliError, type CliCommand } from '../../cli/command.ts';
import { reexecWithServerFlags } from '../../server/v8-flags.ts';
import { CONFLICT_RULES, type ConflictRule } from './context.ts';
import type { KindName } from './report.ts';

/** `--only` names: the (settings = site and appointment settings) and each kind's own. */
const ONLY_NAMES: Record<string, KindName[]> = {
  settings: ['site', 'sched'],
  users: ['users'],
  content: ['content'],
  history: ['history'],
  strings: ['strings'],
  jobs: ['jobs'],
  sliders: ['sliders'],
  site: ['site'],
  sched: ['sched'],
};

export const importWordPressCommand: CliCommand = {
  name: 'import wordpress',
  summary: 'Bring a WordPress site over (read-only on the source; repeatable: later runs bring what changed since).',
  description: [
    'Reads a WordPress database (or a dump of one) and brings its users, pages and posts, activity log, WPML strings and ' +
      'translation jobs, site and appointment settings and sliders. Nothing is written to the source. A later run brings ' +
      'only what changed since the last one.',
  ],
  args: {
    options: {
      from: {
        type: 'string',
        value: 'source',
        required: true,
        help: 'mysql://user:pass@host:3306/db, or a dump file (dump.sql or dump.sql.gz).',
      },
      prefix: { type: 'string', value: 'prefix', help: 'The WordPress table prefix (default wp_).' },
      'dry-run': {
        type: 'boolean',
        help: 'Read and check everything, write nothing; the report says what would happen.',
      },
      only: {
        type: 'string',
        value: 'kinds',
        help: `Only these kinds, comma-separated: ${Object.keys(ONLY_NAMES).join(', ')}.`,
      },
      'on-conflict': {
        type: 'string',
        value: CONFLICT_RULES.join('|'),
        help: 'An item this site already has (same login, slug…): skip the imported one (default), rename it, or overwrite the site’s.',
      },
      'include-trash': { type: 'boolean', help: 'Bring trashed pages and posts too.' },
      uploads: {
        type: 'string',
        value: 'folder',
        help: 'The wp-content/uploads folder, to copy the media the content uses.',
      },
      scratch: {
        type: 'string',
        value: 'mysql-url',
        help: 'With a dump file (required then): a MySQL/MariaDB server, mysql://user:pass@host:3306, to load it into a temporary database.',
      },
    },
  },
  examples: [
    {
      command: 'import wordpress --from mysql://wp:secret@127.0.0.1:3306/wordpress --dry-run',
      help: 'What an import would bring.',
    },
    {
      command: 'import wordpress --from wp.sql --scratch mysql://root@db --only users,content',
      help: 'Users and content from a dump, loaded into a scratch database on db.',
    },
  ],
  async run(args, ctx) {
    const { strings, flags } = parseCommandArgs(this, args);
    const onConflict = (strings['on-conflict'] ?? 'skip') as ConflictRule;
    if (!CONFLICT_RULES.includes(onConflict))
      throw new CliError(`--on-conflict must be one of ${CONFLICT_RULES.join(', ')}, got "${onConflict}"`);
    let only: KindName[] | undefined;
    if (strings.only !== undefined) {
      only = [];
      for (const name of strings.only
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)) {
        const kinds = ONLY_NAMES[name];
        if (!kinds) throw new CliError(`--only: unknown kind "${name}" (kinds: ${Object.keys(ONLY_NAMES).join(', ')})`);
        only.push(...kinds);
      }
    }
    const uploads = strings.uploads;
    if (uploads !== undefined && !fs.statSync(uploads, { throwIfNoEntry: false })?.isDirectory())
      throw new CliError(`--uploads: ${uploads} is not a folder`);
    // Loaded here so that the other commands (serve above all) start without the importer's
    // modules; before the re-execution, which then finds them in the compile cache (bin/content-site.js).
    const { importWordPress } = await import('./run.ts');
    // As the command itself (not run in-process by tests): the server's V8 memory caps keep a long import's RSS bounded.
    if (ctx.stdout === process.stdout) reexecWithServerFlags();
    let from = strings.from!;
    let dropScratch: (() => Promise<void>) | null = null;
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(from)) {
      if (!strings.scratch)
        throw new CliError(
          '--from names a dump file: give --scratch mysql://user:pass@host:3306 (a server where it is loaded into a temporary database)',
        );
      const { loadDump } = await import('./source/dump.ts');
      const loaded = await loadDump(from, strings.scratch, ctx.stderr);
      from = loaded.url;
      dropScratch = loaded.drop;
    } else if (strings.scratch) {
      throw new CliError('--scratch is only for --from <dump file>');
    }
    try {
      const app = await ctx.openApp();
      const report = await importWordPress(app, {
        from,
        prefix: strings.prefix,
        dryRun: flags['dry-run'],
        only,
        onConflict,
        includeTrash: flags['include-trash'],
        uploadsDir: uploads ?? null,
        progressStream: ctx.stderr,
        origin: CLI_ORIGIN,
      });
      ctx.stdout.write(report.format());
    } finally {
      await dropScratch?.();
    }
    return 0;
  },
};

export const importCommands: CliCommand[] = [importWordPressCommand];
