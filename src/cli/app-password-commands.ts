// `content-site app-password …`: application passwords from the command line.
import {
  chunkPassword,
  createAppPassword,
  listAppPasswords,
  revokeAppPassword,
  type AppPasswordItem,
} from '../auth/app-passwords.ts';
import { utcToZone } from '../site/time.ts';
import { parseCommandArgs } from './args.ts';
import { CLI_ORIGIN } from '../site/activity.ts';
import type { CliCommand } from './command.ts';
import { FORMAT_OPTIONS, formatOption, writeList } from './output.ts';
import { requireUserByLogin } from './input.ts';

const LOGIN = { name: 'login', help: 'The login name of the user the password belongs to.' };

const create: CliCommand = {
  name: 'app-password create',
  summary: 'Create an application password and print it (it is shown only this once).',
  description: [
    'Application passwords authenticate API requests with HTTP Basic authentication as login:password. ' +
      'Each of a user’s passwords needs its own name, as in WordPress.',
  ],
  args: {
    positionals: [
      LOGIN,
      { name: 'app-name', help: 'A name for the password, unique among the user’s (e.g. the application using it).' },
    ],
    options: {
      'app-id': { type: 'string', value: 'uuid', help: 'The application’s UUID, if it has one.' },
      json: { type: 'boolean', help: 'Print the new password and its fields as JSON.' },
    },
  },
  examples: [
    { command: 'app-password create admin "Deploy script"', help: 'A password for a script.' },
    { command: 'app-password create admin Backup --json | jq -r .password', help: 'Just the password, for a program.' },
  ],
  async run(args, ctx) {
    const { positionals, strings, flags } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const created = await createAppPassword(
      app,
      user.id,
      { name: positionals[1]!, appId: strings['app-id'] },
      CLI_ORIGIN,
    );
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
  summary: "List a user's application passwords (never the passwords themselves).",
  args: { positionals: [LOGIN], options: FORMAT_OPTIONS },
  examples: [
    { command: 'app-password list admin', help: 'A table, times in the site’s zone.' },
    { command: 'app-password list admin --format json', help: 'The items as the API shows them (times in UTC).' },
  ],
  async run(args, ctx) {
    const { positionals, strings, flags } = parseCommandArgs(this, args);
    const format = formatOption(strings, flags);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const items = await listAppPasswords(app, user.id);
    // In the site's time zone, as the web pages show times, and the zone named in the header.
    const zone = app.options.timeZone();
    const local = (iso: string | null) => (iso === null ? '-' : utcToZone(iso.replace('T', ' '), zone));
    writeList<AppPasswordItem>(ctx.stdout, format, items, {
      fields: ['uuid', 'app_id', 'name', 'created', 'last_used', 'last_ip'],
      columns: [
        { header: 'UUID', cell: (p) => p.uuid },
        { header: 'NAME', cell: (p) => p.name },
        { header: `CREATED (${zone})`, cell: (p) => local(p.created) },
        { header: `LAST USED (${zone})`, cell: (p) => local(p.last_used) },
        { header: 'LAST IP', cell: (p) => p.last_ip ?? '-' },
      ],
    });
    return 0;
  },
};

const revoke: CliCommand = {
  name: 'app-password revoke',
  summary: 'Revoke one application password.',
  args: { positionals: [LOGIN, { name: 'uuid', help: 'The password’s uuid (see app-password list).' }] },
  examples: [
    { command: 'app-password revoke admin 6f1c…', help: 'Requests with that password are refused from now on.' },
  ],
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const revoked = await revokeAppPassword(app, user.id, positionals[1]!, CLI_ORIGIN);
    ctx.stdout.write(`Revoked application password "${revoked.name}" (${revoked.uuid}) of ${user.login}.\n`);
    return 0;
  },
};

export const appPasswordCommands: CliCommand[] = [create, list, revoke];
