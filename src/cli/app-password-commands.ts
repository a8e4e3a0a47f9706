// `content-site app-password …`: application passwords from the command line.
import { chunkPassword, createAppPassword, listAppPasswords, revokeAppPassword } from '../auth/app-passwords.ts';
import { utcToZone } from '../site/time.ts';
import { CLI_ORIGIN, parseCommandArgs } from './args.ts';
import type { CliCommand } from './command.ts';
import { requireUserByLogin, table } from './user-commands.ts';

const create: CliCommand = {
  name: 'app-password create',
  usage: 'app-password create <login> <app-name> [--app-id UUID] [--json]',
  summary: 'Create an application password and print it (it is shown only this once).',
  async run(args, ctx) {
    const { positionals, strings, flags } = parseCommandArgs(this, args, {
      positionals: ['login', 'app-name'],
      options: { 'app-id': { type: 'string' }, json: { type: 'boolean' } },
    });
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const created = await createAppPassword(app, user.id, { name: positionals[1]!, appId: strings['app-id'] }, CLI_ORIGIN);
    const password = chunkPassword(created.password);
    if (flags.json) {
      ctx.stdout.write(JSON.stringify({ ...created, password, user_login: user.login }, null, 2) + '\n');
    } else {
      ctx.stdout.write(
        `Application password "${created.name}" for ${user.login} (uuid ${created.uuid}):\n\n  ${password}\n\n` +
          'Save it now: it cannot be shown again. Use it with HTTP Basic authentication as\n' +
          `  ${user.login}:${password}\n`,
      );
    }
    return 0;
  },
};

const list: CliCommand = {
  name: 'app-password list',
  usage: 'app-password list <login> [--json]',
  summary: "List a user's application passwords (never the passwords themselves).",
  async run(args, ctx) {
    const { positionals, flags } = parseCommandArgs(this, args, { positionals: ['login'], options: { json: { type: 'boolean' } } });
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const items = await listAppPasswords(app, user.id);
    if (flags.json) ctx.stdout.write(JSON.stringify(items, null, 2) + '\n');
    else {
      // In the site's time zone, as the web pages show times, and the zone named in the header.
      const zone = app.options.timeZone();
      const local = (iso: string | null) => (iso === null ? '-' : utcToZone(iso.replace('T', ' '), zone));
      ctx.stdout.write(
        table(
          ['UUID', 'NAME', `CREATED (${zone})`, `LAST USED (${zone})`, 'LAST IP'],
          items.map((p) => [p.uuid, p.name, local(p.created), local(p.last_used), p.last_ip ?? '-']),
        ),
      );
    }
    return 0;
  },
};

const revoke: CliCommand = {
  name: 'app-password revoke',
  usage: 'app-password revoke <login> <uuid>',
  summary: 'Revoke one application password.',
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args, { positionals: ['login', 'uuid'] });
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const revoked = await revokeAppPassword(app, user.id, positionals[1]!, CLI_ORIGIN);
    ctx.stdout.write(`Revoked application password "${revoked.name}" (${revoked.uuid}) of ${user.login}.\n`);
    return 0;
  },
};

export const appPasswordCommands: CliCommand[] = [create, list, revoke];
