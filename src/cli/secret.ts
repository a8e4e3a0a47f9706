// Reading a secret at a terminal without echoing it (as `passwd` does).
import { CliError } from './command.ts';

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
