// Every command of the `content-site` CLI: the host's own, then the modules' (src/modules.ts).
import module from 'node:module';
import { openDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { appPasswordCommands } from './app-password-commands.ts';
import { parseCommandArgs } from './args.ts';
import { CLI_ORIGIN } from '../site/activity.ts';
import type { CliCommand } from './command.ts';
import { firstStart, seedDemo } from './seed.ts';
import { userCommands } from './user-commands.ts';
import { MIGRATIONS, MODULE_COMMANDS } from '../modules.ts';
import { reexecWithServerFlags } from '../server/v8-flags.ts';

const serve: CliCommand = {
  name: 'serve',
  summary: 'Run the HTTP server; seeds a new site on its first start.',
  description: [
    'Listens on HOST:PORT (default 127.0.0.1:8080) and serves the site at SITE_URL (default http://localhost:PORT), ' +
      'with the database of DATABASE_URL. On the first start it creates the site options, the demo content and the ' +
      'administrator "admin", and prints an application password and a one-time link to choose admin’s password. ' +
      'Several processes may serve one PostgreSQL database; give them all the same SITE_URL.',
  ],
  args: {},
  examples: [
    { command: 'serve', help: 'The site at http://localhost:8080 on data/site.db.' },
    {
      command: 'serve',
      help: 'With PORT=3000, DATABASE_URL=postgres://cms@db/cms and SITE_URL=https://example.org in the environment or .env: behind a reverse proxy (docs/deploy/).',
    },
  ],
  async run(args, ctx) {
    parseCommandArgs(this, args);
    // Loaded here so the other commands start fast and do not depend on the server code; before
    // the re-execution, which then finds these modules in the compile cache (bin/content-site.js;
    // Node writes it before it re-executes) and does not load the type stripper.
    const { startServer } = await import('../server/start.ts');
    // Only when this process is the command itself (tests run commands in-process with their own io).
    if (ctx.stdout === process.stdout) reexecWithServerFlags();
    const running = await startServer(ctx.config, {
      prepare: (app) => firstStart(app, ctx.stdout).then(() => {}),
      handleSignals: true,
    });
    // The address to open is the site's (SITE_URL): pages, links and the login live there.
    const site = ctx.config.siteUrl;
    // What this process stripped itself (started with the flags given, so not re-executed): written
    // now, not at an exit that a SIGKILL never reaches, so the next start finds it.
    module.flushCompileCache();
    ctx.stdout.write(
      `Listening on ${running.address}\nSite: ${site}/en/ and ${site}/de/ · log in: ${site}/cms-login.php · health: ${site}/readyz\n`,
    );
    return 0;
  },
};

const migrate: CliCommand = {
  name: 'migrate',
  summary: 'Apply pending database migrations.',
  description: [
    'serve and the other commands migrate too; run it alone before starting several processes of a new version.',
  ],
  args: {},
  examples: [{ command: 'migrate', help: 'Brings the database of DATABASE_URL up to date.' }],
  async run(args, ctx) {
    parseCommandArgs(this, args);
    const handle = openDatabase(ctx.config.databaseUrl);
    try {
      const applied = await migrateToLatest(handle.db, handle.dialect, MIGRATIONS);
      ctx.stdout.write(
        applied.length ? `Applied migrations: ${applied.join(', ')}.\n` : 'The database is up to date.\n',
      );
    } finally {
      await handle.destroy();
    }
    return 0;
  },
};

const seed: CliCommand = {
  name: 'seed',
  summary: 'Add the demo content (one demo user per role and every namespace’s demo data).',
  description: ['Safe to run again: what exists is kept. The demo users (demo-<role>) have no password.'],
  args: {
    options: {
      demo: { type: 'boolean', required: true, help: 'The demo content (the only kind of seed data there is).' },
    },
  },
  examples: [{ command: 'seed --demo', help: 'Adds the demo users, pages, sliders, strings and jobs.' }],
  async run(args, ctx) {
    parseCommandArgs(this, args);
    await seedDemo(await ctx.openApp(), CLI_ORIGIN);
    ctx.stdout.write('Demo content added.\n');
    return 0;
  },
};

export const COMMANDS: CliCommand[] = [
  serve,
  migrate,
  ...userCommands,
  ...appPasswordCommands,
  seed,
  ...MODULE_COMMANDS,
];
