// What commands read besides their arguments: the user a login names, and a new password (asked
// at a terminal without echo, as `passwd` does, or a line of standard input). Kernel, as
// args.ts: commands of the modules use it too.
import type { AppServices } from '../site/services.ts';
import { findUserByLogin, type UserRow } from '../auth/user-rows.ts';
import { CliError, type CliContext } from './command.ts';

/** The `<login>` positional of the commands that act on one user (see requireUserByLogin). */
export const LOGIN_ARG = { name: 'login', help: 'The user’s login name.' };

export async function requireUserByLogin(app: AppServices, login: string): Promise<UserRow> {
  const user = await findUserByLogin(app, login);
  if (!user) throw new CliError(`unknown user "${login}"`);
  return user;
}

/** Shows `prompt` on `out`, reads one line from the terminal `tty` with echo off. */
export function readSecret(tty: NodeJS.ReadStream, out: NodeJS.WritableStream, prompt: string): Promise<string> {
  // Echo off before the prompt invites typing.
  tty.setRawMode(true);
  tty.setEncoding('utf8');
  tty.resume();
  out.write(prompt);
  return new Promise((resolve, reject) => {
    let text = '';
    const done = (err: Error | null) => {
      tty.off('data', onData);
      tty.setRawMode(false);
      tty.pause();
      out.write('\n');
      if (err) reject(err);
      else resolve(text);
    };
    const onData = (chunk: string) => {
      for (const ch of chunk) {
        if (ch === '\r' || ch === '\n') return done(null);
        if (ch === '\u0003' || ch === '\u0004') return done(new CliError('cancelled; nothing was changed'));
        if (ch === '\u007f' || ch === '\b') text = text.slice(0, -1);
        else if (ch >= ' ') text += ch;
      }
    };
    tty.on('data', onData);
  });
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : (chunk as Buffer).toString('utf8');
  return text;
}

/** A new password: `given` (--password), else asked twice at a terminal, else the first line of standard input. */
export async function readNewPassword(ctx: CliContext, login: string, given: string | undefined): Promise<string> {
  if (given !== undefined) return given;
  const stdin = (ctx.stdin ?? process.stdin) as NodeJS.ReadStream;
  if (stdin.isTTY) {
    const first = await readSecret(stdin, ctx.stderr, `New password for ${login}: `);
    const again = await readSecret(stdin, ctx.stderr, 'Type it again: ');
    if (first !== again) throw new CliError('the two passwords differ; nothing was changed');
    return first;
  }
  const line = (await readAll(stdin)).split(/\r?\n/)[0] ?? '';
  if (!line)
    throw new CliError('no password: give --password, type it at a terminal, or pass it as a line on standard input');
  return line;
}
