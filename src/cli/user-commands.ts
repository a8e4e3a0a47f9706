// `content-site user …`: manage site users from the command line.
import { createUser, deleteUser, setUserRole, setUserStatus } from '../auth/users.ts';
import { listUsers } from '../auth/user-rows.ts';
import { ROLES } from '../auth/roles.ts';
import { parseCommandArgs } from './args.ts';
import { CLI_ORIGIN } from '../site/activity.ts';
import { LOGIN_ARG, requireUserByLogin } from './input.ts';
import type { CliCommand } from './command.ts';
import { FORMAT_OPTIONS, formatOption, writeList } from './output.ts';

const create: CliCommand = {
  name: 'user create',
  summary: 'Create a user.',
  description: [
    'Without --password the user can use application passwords but not log in to the web pages until a password is set ' +
      '(user set-password) or they follow a set-password link (user reset-password).',
  ],
  args: {
    positionals: [{ name: 'login', help: 'Login name: letters, digits and _ . @ - (at most 60).' }],
    options: {
      email: { type: 'string', value: 'address', required: true, help: 'E-mail address, unique among the users.' },
      role: { type: 'string', value: 'role', required: true, help: `One of ${ROLES.join(', ')}.` },
      password: {
        type: 'string',
        value: 'password',
        help: 'Password for the web pages (it ends up in the shell history: prefer user set-password).',
      },
      'display-name': {
        type: 'string',
        value: 'name',
        help: 'Name shown on pages and in the activity log (default: the login).',
      },
    },
  },
  examples: [
    { command: 'user create alice --email alice@example.com --role editor', help: 'An editor without a password yet.' },
    {
      command: 'user create bob --email bob@example.com --role translator --display-name Bob',
      help: 'A translator with a display name.',
    },
  ],
  async run(args, ctx) {
    const { positionals, strings } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const row = await createUser(
      app,
      {
        login: positionals[0]!,
        email: strings.email!,
        role: strings.role!,
        displayName: strings['display-name'],
        password: strings.password,
      },
      CLI_ORIGIN,
    );
    ctx.stdout.write(`Created user ${row.login} (id ${row.id}, role ${row.role}).\n`);
    if (!row.password_hash) {
      ctx.stdout.write(
        `${row.login} has no password for the web pages yet: set one with npx content-site user set-password ${row.login},\n` +
          `or make a one-time link for them with npx content-site user reset-password ${row.login}.\n`,
      );
    }
    return 0;
  },
};

interface UserItem {
  id: number;
  login: string;
  email: string;
  display_name: string;
  role: string;
  status: string;
  created: string;
}

const list: CliCommand = {
  name: 'user list',
  summary: 'List all users.',
  args: { options: FORMAT_OPTIONS },
  examples: [
    { command: 'user list', help: 'A table of the users.' },
    { command: 'user list --format csv > users.csv', help: 'Every field as CSV, times in UTC.' },
  ],
  async run(args, ctx) {
    const { strings, flags } = parseCommandArgs(this, args);
    const format = formatOption(strings, flags);
    const app = await ctx.openApp();
    const items: UserItem[] = (await listUsers(app)).map((u) => ({
      id: u.id,
      login: u.login,
      email: u.email,
      display_name: u.display_name,
      role: u.role,
      status: u.status,
      created: `${u.created_at.replace(' ', 'T')}Z`,
    }));
    writeList(ctx.stdout, format, items, {
      fields: ['id', 'login', 'email', 'display_name', 'role', 'status', 'created'],
      columns: [
        { header: 'ID', cell: (u) => String(u.id) },
        { header: 'LOGIN', cell: (u) => u.login },
        { header: 'EMAIL', cell: (u) => u.email },
        { header: 'ROLE', cell: (u) => u.role },
        { header: 'STATUS', cell: (u) => u.status },
        { header: 'DISPLAY NAME', cell: (u) => u.display_name },
      ],
    });
    return 0;
  },
};

const setRole: CliCommand = {
  name: 'user set-role',
  summary: "Change a user's role.",
  args: { positionals: [LOGIN_ARG, { name: 'role', help: `One of ${ROLES.join(', ')}.` }] },
  examples: [{ command: 'user set-role alice administrator', help: 'Make alice an administrator.' }],
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const row = await setUserRole(app, user.id, positionals[1]!, CLI_ORIGIN);
    ctx.stdout.write(`User ${row.login} now has the role ${row.role}.\n`);
    return 0;
  },
};

function statusCommand(verb: 'disable' | 'enable'): CliCommand {
  return {
    name: `user ${verb}`,
    summary:
      verb === 'disable'
        ? 'Refuse all logins of a user (keeps the account and its data).'
        : 'Allow a disabled user to log in again.',
    args: { positionals: [LOGIN_ARG] },
    examples: [
      {
        command: `user ${verb} alice`,
        help:
          verb === 'disable'
            ? 'alice can no longer log in or use her application passwords.'
            : 'alice can log in again.',
      },
    ],
    async run(args, ctx) {
      const { positionals } = parseCommandArgs(this, args);
      const app = await ctx.openApp();
      const user = await requireUserByLogin(app, positionals[0]!);
      const row = await setUserStatus(app, user.id, verb === 'disable' ? 'disabled' : 'active', CLI_ORIGIN);
      ctx.stdout.write(`User ${row.login} is ${row.status}.\n`);
      return 0;
    },
  };
}

const remove: CliCommand = {
  name: 'user delete',
  summary: 'Delete a user and their application passwords.',
  args: { positionals: [LOGIN_ARG] },
  examples: [{ command: 'user delete alice', help: 'Deletes alice; the activity log keeps her events.' }],
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    await deleteUser(app, user.id, CLI_ORIGIN);
    ctx.stdout.write(`Deleted user ${user.login}.\n`);
    return 0;
  },
};

export const userCommands: CliCommand[] = [
  create,
  list,
  setRole,
  statusCommand('disable'),
  statusCommand('enable'),
  remove,
];
