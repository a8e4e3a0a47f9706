// Every command of the `content-site` CLI: the host's own, then the modules' (src/modules.ts).
import { openDatabase } from '../db/index.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { appPasswordCommands } from './app-password-commands.ts';
import { CLI_ORIGIN, parseCommandArgs } from './args.ts';
import { CliError, type CliCommand } from './command.ts';
import { firstStart, seedDemo } from './seed.ts';
import { userCommands } from './user-commands.ts';
import { MIGRATIONS, MODULE_COMMANDS } from '../modules.ts';
import { reexecWithServerFlags } from '../server/v8-flags.ts';

const serve: CliCommand = {
  name: 'serve',
  usage: 'serve',
  summary: 'Run the HTTP server (PORT, HOST, SITE_URL, DATABASE_URL); seeds a new site on its first start.',
  async run(args, ctx) {
    parseCommandArgs(this, args, {});
    // Only when this process is the command itself (tests run commands in-process with their own io).
    if (ctx.stdout === process.stdout) reexecWithServerFlags();
    // Loaded here so the other commands start fast and do not depend on the server code.
    const { startServer } = await import('../server/start.ts');
    const running = await startServer(ctx.config, { prepare: (app) => firstStart(app, ctx.stdout).then(() => {}), handleSignals: true });
    // The address to open is the site's (SITE_URL): pages, links and the login live there.
    const site = ctx.config.siteUrl;
    ctx.stdout.write(`Listening on ${running.address}\nSite: ${site}/en/ and ${site}/de/ · log in: ${site}/cms-login.php · health: ${site}/readyz\n`);
    return 0;
  },
};

const migrate: CliCommand = {
  name: 'migrate',
  usage: 'migrate',
  summary: 'Apply pending database migrations.',
  async run(args, ctx) {
    parseCommandArgs(this, args, {});
    const handle = openDatabase(ctx.config.databaseUrl);
    try {
      const applied = await migrateToLatest(handle.db, handle.dialect, MIGRATIONS);
      ctx.stdout.write(applied.length ? `Applied migrations: ${applied.join(', ')}.\n` : 'The database is up to date.\n');
    } finally {
      await handle.destroy();
    }
    return 0;
  },
};

const seed: CliCommand = {
  name: 'seed',
  usage: 'seed --demo',
  summary: 'Add the demo content (one demo user per role and every namespace’s demo data).',
  async run(args, ctx) {
    const { flags } = parseCommandArgs(this, args, { options: { demo: { type: 'boolean' } } });
    if (!flags.demo) throw new CliError('seed needs --demo (the only kind of seed data there is)');
    await seedDemo(await ctx.openApp(), CLI_ORIGIN);
    ctx.stdout.write('Demo content added.\n');
    return 0;
  },
};

export const COMMANDS: CliCommand[] = [serve, migrate, ...userCommands, ...appPasswordCommands, seed, ...MODULE_COMMANDS];
