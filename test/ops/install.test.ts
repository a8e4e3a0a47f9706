// A fresh clone installs quietly and stays clean: package-lock.json records what npm itself would
// write after installing (so `npm install` rewrites nothing), and npm running on the machine's
// older Node prints no engine warnings about the Node 24 the project pins (.npmrc).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../cli/run.ts';

interface LockEntry {
  version?: string;
  hasInstallScript?: boolean;
}

test('package-lock.json marks exactly the installed packages that have install scripts (npm would rewrite it otherwise)', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const mismatches: string[] = [];
  for (const [where, entry] of Object.entries(lock.packages)) {
    if (!where.startsWith('node_modules/')) continue;
    const dir = path.join(ROOT, where);
    if (!fs.existsSync(path.join(dir, 'package.json'))) continue; // optional, not installed here
    const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    const scripts = manifest.scripts ?? {};
    // npm's rule: an install lifecycle script, or a binding.gyp (npm then runs node-gyp itself).
    const hasInstallScript =
      !!(scripts.preinstall || scripts.install || scripts.postinstall) || fs.existsSync(path.join(dir, 'binding.gyp'));
    if (hasInstallScript !== (entry.hasInstallScript === true))
      mismatches.push(`${where}: installed ${hasInstallScript}, lock ${entry.hasInstallScript === true}`);
  }
  assert.deepEqual(mismatches, []);
});

/** The first `name` on PATH outside this project's node_modules/.bin (the machine's own). */
function machineCommand(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (!dir || path.resolve(dir).startsWith(path.join(ROOT, 'node_modules'))) continue;
    const file = path.join(dir, name);
    if (fs.existsSync(file)) return file;
  }
  return null;
}

const machineNode = machineCommand('node');
const machineNpm = machineCommand('npm');
const machineMajor = machineNode
  ? Number(execFileSync(machineNode, ['-p', 'process.versions.node.split(".")[0]'], { encoding: 'utf8' }).trim())
  : null;

test("npm on the machine's Node installs the locked tree without a word about engines", {
  skip:
    !machineNode || !machineNpm
      ? 'no node and npm of the machine on PATH'
      : machineMajor! >= 24
        ? "the machine's Node is 24 or newer: no engine warnings to silence"
        : false,
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-install-'));
  try {
    for (const file of ['package.json', 'package-lock.json', '.npmrc'])
      fs.copyFileSync(path.join(ROOT, file), path.join(dir, file));
    // A dry run from the lock file and npm's cache: the engine checks run, nothing is fetched or written.
    // --ignore-scripts: only package.json and the lock are copied, so the project's own `prepare`
    // (the console build, run by the pinned Node 24 in a real install) has nothing to build here.
    const npmCli = fs.realpathSync(machineNpm!);
    const res = spawnSync(
      machineNode!,
      [npmCli, 'install', '--dry-run', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'],
      { cwd: dir, encoding: 'utf8', env: { ...process.env, PATH: path.dirname(machineNode!) } },
    );
    assert.equal(res.status, 0, res.stderr);
    assert.doesNotMatch(res.stderr + res.stdout, /EBADENGINE|Unsupported engine/);
    assert.equal(res.stderr.trim(), '');
    assert.deepEqual(
      fs.readFileSync(path.join(dir, 'package-lock.json')),
      fs.readFileSync(path.join(ROOT, 'package-lock.json')),
    );
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
