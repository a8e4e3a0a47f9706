// Progress of a run on stderr: a bar per stage on a terminal, otherwise one plain line when a
// stage starts and one when it ends (logs and CI output stay readable).
import cliProgress from 'cli-progress';

export interface StageProgress {
  /** Items done so far. */
  update(done: number): void;
  /** The stage ended; `summary` is shown after it. */
  finish(summary: string): void;
}

export class Progress {
  private readonly stream: NodeJS.WritableStream;
  private readonly interactive: boolean;

  constructor(stream: NodeJS.WritableStream) {
    this.stream = stream;
    this.interactive = Boolean((stream as NodeJS.WriteStream).isTTY);
  }

  stage(name: string, total: number): StageProgress {
    const started = performance.now();
    const elapsed = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
    if (!this.interactive) {
      this.stream.write(`${name}: ${total} to read\n`);
      return { update() {}, finish: (summary) => this.stream.write(`${name}: ${summary} (${elapsed()})\n`) };
    }
    const bar = new cliProgress.SingleBar(
      {
        format: `${name.padEnd(9)} {bar} {percentage}% | {value}/{total} | {eta_formatted} left`,
        stream: this.stream,
        hideCursor: true,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(Math.max(total, 1), 0);
    return {
      update: (done) => bar.update(Math.min(done, Math.max(total, 1))),
      finish: (summary) => {
        bar.update(Math.max(total, 1));
        bar.stop();
        this.stream.write(`${name}: ${summary} (${elapsed()})\n`);
      },
    };
  }
}
