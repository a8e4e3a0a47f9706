// The CLI's help in wp-cli's manner (`help <command>`, `<command> --help`), its width, and
// argument mistakes as one clean line. In-process (no database is opened).
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli/main.ts';
import { COMMANDS } from '../../src/cli/commands.ts';
import { capture } from '../ops/support.ts';

async function run(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = capture();
  const err = capture();
  const code = await runCli(args, {
    stdout: out.stream,
    stderr: err.stream,
    env: { LOG_LEVEL: 'silent', DATABASE_URL: 'sqlite::memory:' },
  });
  return { code, stdout: out.text(), stderr: err.text() };
}

function assertWithin100(text: string, what: string): void {
  for (const line of text.split('\n')) assert.ok(line.length <= 100, `${what}: ${line.length} columns: ${line}`);
}

describe('content-site help', () => {
  test('help, --help and -h list every command within 100 columns; exit 0', async () => {
    for (const args of [['help'], ['--help'], ['-h']]) {
      const r = await run(args);
      assert.equal(r.code, 0, args.join(' '));
      assert.equal(r.stderr, '');
      for (const c of COMMANDS) assert.match(r.stdout, new RegExp(`\\n  ${c.name} +\\S`), c.name);
      assertWithin100(r.stdout, args.join(' '));
    }
    const none = await run([]);
    assert.equal(none.code, 1, 'no command at all is a mistake');
    assert.match(none.stderr, /^usage: content-site <command>/);
  });

  test('every command: help <command> = <command> --help = <command> <args> --help, with synopsis, options, examples', async () => {
    for (const c of COMMANDS) {
      const words = c.name.split(' ');
      const viaHelp = await run(['help', ...words]);
      assert.equal(viaHelp.code, 0, c.name);
      assert.equal((await run([...words, '--help'])).stdout, viaHelp.stdout, c.name);
      assert.equal((await run([...words, 'some-argument', '--count', '3', '-h'])).stdout, viaHelp.stdout, c.name);
      assert.match(
        viaHelp.stdout,
        new RegExp(`^NAME\\n\\n  content-site ${c.name}\\n\\nDESCRIPTION\\n\\n  \\S`),
        c.name,
      );
      assert.match(viaHelp.stdout, new RegExp(`\\nSYNOPSIS\\n\\n  content-site ${c.name}`), c.name);
      for (const name of Object.keys(c.args.options ?? {}))
        assert.match(viaHelp.stdout, new RegExp(`\\n  --${name}\\b`), `${c.name} --${name}`);
      for (const p of c.args.positionals ?? [])
        assert.ok(viaHelp.stdout.includes(`<${p.name}>`), `${c.name} <${p.name}>`);
      assert.match(viaHelp.stdout, new RegExp(`\\nEXAMPLES\\n\\n  # .+\\n  \\$ npx content-site ${c.name}`), c.name);
      assertWithin100(viaHelp.stdout, c.name);
    }
  });

  test('a group: help user = user --help, exit 0, its subcommands', async () => {
    const r = await run(['user', '--help']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout, (await run(['help', 'user'])).stdout);
    assert.match(
      r.stdout,
      /^usage: content-site user <subcommand> \[<arguments>\]\n\nSubcommands:\n  create +Create a user\.\n/,
    );
    assert.match(r.stdout, /\n  set-password +Set a user's password/);
    assert.match(r.stdout, /\n  reset-password +Print a one-time link/);
  });

  test('the slider import file format and the CSV/JSON formats are documented', async () => {
    const slider = (await run(['help', 'slider', 'import'])).stdout;
    assert.match(slider, /\nFILE FORMAT\n\n  \{"version": 1, "sliders": \[<slider>, …\]\}/);
    for (const key of ['"alias"', '"settings"', '"slides"', '"layers"', '"transition"', '"position"'])
      assert.ok(slider.includes(key), key);
    for (const list of [
      ['user', 'list'],
      ['app-password', 'list'],
    ]) {
      assert.match((await run(['help', ...list])).stdout, /--format <table\|json\|csv>/, list.join(' '));
    }
  });

  test('unknown commands in help: one line, exit 1', async () => {
    const r = await run(['help', 'frobnicate']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, 'content-site: unknown command "frobnicate" (see content-site help)\n');
  });
});

describe('argument mistakes are one clean line', () => {
  const cases: [string[], RegExp][] = [
    [
      ['events', 'generate', '--count', '-5'],
      /^content-site: --count needs a value; for a value that starts with "-" write --count=<value> \(usage: content-site events generate --count <n>/,
    ],
    [
      ['events', 'generate', '--count=-5'],
      /^content-site: --count must be a whole number from 1 to 50000000, got "-5"\n$/,
    ],
    [['events', 'generate', '--count'], /^content-site: --count needs a value \(usage:/],
    [['seed', '--demo=yes'], /^content-site: --demo takes no value \(usage: content-site seed --demo\)\n$/],
    [['user', 'list', '--colour'], /^content-site: Unknown option '--colour'\. \(usage: content-site user list/],
    [['user', 'list', '--format', 'xml'], /^content-site: --format must be one of table, json, csv, got "xml"\n$/],
    [['events', 'purge'], /^content-site: events purge needs --generated or --before <date>/],
    [
      ['events', 'purge', '--before', '2026-02-30'],
      /^content-site: --before must be a date \(YYYY-MM-DD\) or a time \(YYYY-MM-DD HH:MM\[:SS\]\) in UTC, got "2026-02-30"\n$/,
    ],
    [['events', 'clear'], /^content-site: missing --yes \(usage: content-site events clear --yes\)\n$/],
    [['slider', 'import'], /^content-site: missing <file\.json> \(usage: content-site slider import <file\.json>\)\n$/],
    [
      ['slider', 'export', 'a', 'b'],
      /^content-site: unexpected argument "b" \(usage: content-site slider export \[<slider>\]\)\n$/,
    ],
  ];
  for (const [args, pattern] of cases) {
    test(args.join(' '), async () => {
      const r = await run(args);
      assert.equal(r.code, 1);
      assert.equal(r.stdout, '');
      assert.match(r.stderr, /^content-site: [^\n]+\n$/);
      assert.match(r.stderr, pattern);
    });
  }
});
