// `content-site user …`: manage site users from the command line.
import type { AppServices } from '../site/services.ts';
import { createUser, deleteUser, findUserByLogin, listUsers, setUserRole, setUserStatus, type UserRow } from '../auth/users.ts';
import { ROLES } from '../auth/roles.ts';
import { CLI_ORIGIN, parseCommandArgs } from './args.ts';
import { CliError, type CliCommand } from './command.ts';

export async function requireUserByLogin(app: AppServices, login: string): Promise<UserRow> {
  const user = await findUserByLogin(app, login);
  if (!user) throw new CliError(`unknown user "${login}"`);
  return user;
}

const create: CliCommand = {
  name: 'user create',
  usage: 'user create <login> --email E --role R [--password P] [--display-name N]',
  summary: `Create a user; roles: ${ROLES.join(', ')}.`,
  async run(args, ctx) {
    const { positionals, strings } = parseCommandArgs(this, args, {
      positionals: ['login'],
      options: { email: { type: 'string' }, role: { type: 'string' }, password: { type: 'string' }, 'display-name': { type: 'string' } },
      required: ['email', 'role'],
    });
    const app = await ctx.openApp();
    const row = await createUser(
      app,
      { login: positionals[0]!, email: strings.email!, role: strings.role!, displayName: strings['display-name'], password: strings.password },
      CLI_ORIGIN,
    );
    ctx.stdout.write(`Created user ${row.login} (id ${row.id}, role ${row.role}).\n`);
    return 0;
  },
};

const list: CliCommand = {
  name: 'user list',
  usage: 'user list [--json]',
  summary: 'List all users.',
  async run(args, ctx) {
    const { flags } = parseCommandArgs(this, args, { options: { json: { type: 'boolean' } } });
    const users = await listUsers(await ctx.openApp());
    if (flags.json) {
      const out = users.map((u) => ({ id: u.id, login: u.login, email: u.email, display_name: u.display_name, role: u.role, status: u.status, created: `${u.created_at.replace(' ', 'T')}Z` }));
      ctx.stdout.write(JSON.stringify(out, null, 2) + '\n');
    } else {
      ctx.stdout.write(table(['ID', 'LOGIN', 'EMAIL', 'ROLE', 'STATUS', 'DISPLAY NAME'], users.map((u) => [String(u.id), u.login, u.email, u.role, u.status, u.display_name])));
    }
    return 0;
  },
};

const setRole: CliCommand = {
  name: 'user set-role',
  usage: 'user set-role <login> <role>',
  summary: "Change a user's role.",
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args, { positionals: ['login', 'role'] });
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
    usage: `user ${verb} <login>`,
    summary: verb === 'disable' ? 'Refuse all logins of a user (keeps the account and its data).' : 'Allow a disabled user to log in again.',
    async run(args, ctx) {
      const { positionals } = parseCommandArgs(this, args, { positionals: ['login'] });
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
  usage: 'user delete <login>',
  summary: 'Delete a user and their application passwords.',
  async run(args, ctx) {
    const { positionals } = parseCommandArgs(this, args, { positionals: ['login'] });
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    await deleteUser(app, user.id, CLI_ORIGIN);
    ctx.stdout.write(`Deleted user ${user.login}.\n`);
    return 0;
  },
};

/** Plain-text table with left-aligned columns. */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i]!))).join('  ') + '\n';
  return [header, ...rows].map(line).join('');
}

export const userCommands: CliCommand[] = [create, list, setRole, statusCommand('disable'), statusCommand('enable'), remove];
