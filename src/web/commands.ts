// `content-site user set-password` and `user reset-password`: the passwords of the login pages,
// set from the command line or by the user with a one-time link to this module's form.
import { createPasswordResetLink, RESET_KEY_HOURS } from '../auth/password-reset.ts';
import { setUserPassword } from '../auth/users.ts';
import { parseCommandArgs, wholeNumberOption } from '../cli/args.ts';
import { CLI_ORIGIN } from '../site/activity.ts';
import type { CliCommand } from '../cli/command.ts';
import { LOGIN_ARG, readNewPassword, requireUserByLogin } from '../cli/input.ts';
import { utcToZone } from '../site/time.ts';
import { destroyUserSessions } from './session.ts';
import { PATHS, pageUrl, siteAddress } from './urls.ts';

const setPassword: CliCommand = {
  name: 'user set-password',
  summary: "Set a user's password for the web pages (login, console).",
  description: [
    'At a terminal the password is asked twice without echo. Scripts pass it as the first line of standard input ' +
      '(or with --password, which ends up in the shell history). At least 8 characters. The user’s web sessions end.',
  ],
  args: {
    positionals: [LOGIN_ARG],
    options: {
      password: {
        type: 'string',
        value: 'password',
        help: 'The new password (else asked, or read from standard input).',
      },
    },
  },
  examples: [
    { command: 'user set-password admin', help: 'Asks for the new password twice.' },
    { command: 'user set-password alice < secret.txt', help: 'Reads it from a file (first line).' },
  ],
  async run(args, ctx) {
    const { positionals, strings } = parseCommandArgs(this, args);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const password = await readNewPassword(ctx, user.login, strings.password);
    await setUserPassword(app, user.id, password, CLI_ORIGIN);
    await destroyUserSessions(app, user.id);
    ctx.stdout.write(
      `Set the password of ${user.login}; they log in at ${pageUrl(siteAddress(app.config.siteUrl), PATHS.login)}\n`,
    );
    return 0;
  },
};

const resetPassword: CliCommand = {
  name: 'user reset-password',
  summary: 'Print a one-time link that lets the user choose a new password.',
  description: [
    'The link opens a page of the site where the user sets a password; it works once and until it expires. ' +
      'A new link replaces the user’s earlier one. The current password keeps working until a new one is set.',
  ],
  args: {
    positionals: [LOGIN_ARG],
    options: {
      hours: {
        type: 'string',
        value: 'hours',
        help: `How long the link works, 1 to 720 hours (default ${RESET_KEY_HOURS}).`,
      },
    },
  },
  examples: [{ command: 'user reset-password alice --hours 72', help: 'A link for alice that works for three days.' }],
  async run(args, ctx) {
    const { positionals, strings } = parseCommandArgs(this, args);
    const hours = wholeNumberOption(strings.hours, 'hours', { min: 1, max: 720 }, RESET_KEY_HOURS);
    const app = await ctx.openApp();
    const user = await requireUserByLogin(app, positionals[0]!);
    const { url, expiresAt } = await createPasswordResetLink(app, user, hours, CLI_ORIGIN);
    const zone = app.options.timeZone();
    ctx.stdout.write(
      `One-time link for ${user.login} to set a password (works once, until ${utcToZone(expiresAt, zone)} ${zone}):\n\n  ${url}\n`,
    );
    return 0;
  },
};

export const webCommands: CliCommand[] = [setPassword, resetPassword];
