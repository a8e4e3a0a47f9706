// The production setup in docs/deploy/ is checked by the tools that will read it: the systemd
// unit by `systemd-analyze verify`, the nginx site by `nginx -t` (both from Debian's packages,
// installed by .ci/run; neither needs systemd or nginx to be running). The files are checked as
// installed at this checkout (its path for /srv/content-site) and with a throw-away certificate
// for the example's certificate paths; nothing else of them is changed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { needs } from '../support/environment.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const DEPLOY = path.join(ROOT, 'docs/deploy');

function which(command: string): string | null {
  for (const dir of ['/usr/sbin', '/usr/bin', '/sbin', '/bin'])
    if (fs.existsSync(path.join(dir, command))) return path.join(dir, command);
  return null;
}

const SYSTEMD_ANALYZE = which('systemd-analyze');
const NGINX = which('nginx');
const OPENSSL = which('openssl');

test('the systemd unit passes systemd-analyze verify', {
  skip: needs('systemd-analyze', !!SYSTEMD_ANALYZE, 'apt-get install -y systemd'),
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-unit-'));
  try {
    const unit = fs.readFileSync(path.join(DEPLOY, 'content-site@.service'), 'utf8');
    assert.match(unit, /^ExecStart=\/srv\/content-site\/node_modules\/\.bin\/node bin\/content-site\.js serve$/m);
    const file = path.join(dir, 'content-site@8081.service');
    fs.writeFileSync(file, unit.replaceAll('/srv/content-site', ROOT));
    const res = spawnSync(SYSTEMD_ANALYZE!, ['verify', file], { encoding: 'utf8' });
    assert.equal(res.status, 0, res.stderr);
    // Unknown keys and other mistakes are warnings with exit code 0: none may be printed.
    assert.equal(`${res.stdout}${res.stderr}`.trim(), '');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the nginx site passes nginx -t', {
  skip: needs('nginx and openssl', !!NGINX && !!OPENSSL, 'apt-get install -y nginx-light openssl'),
}, () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'content-site-nginx-'));
  try {
    execFileSync(
      OPENSSL!,
      [
        'req',
        '-x509',
        '-newkey',
        'rsa:2048',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=portal.example.com',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    const site = fs
      .readFileSync(path.join(DEPLOY, 'nginx-content-site.conf'), 'utf8')
      .replace(/(ssl_certificate\s+)\S+;/, `$1${path.join(dir, 'cert.pem')};`)
      .replace(/(ssl_certificate_key\s+)\S+;/, `$1${path.join(dir, 'key.pem')};`);
    fs.writeFileSync(path.join(dir, 'site.conf'), site);
    // The site file goes into http {} as in Debian's /etc/nginx/nginx.conf (sites-enabled/*).
    fs.writeFileSync(
      path.join(dir, 'nginx.conf'),
      `pid ${dir}/nginx.pid;\nerror_log ${dir}/error.log;\nevents {}\nhttp {\n  access_log ${dir}/access.log;\n  include ${dir}/site.conf;\n}\n`,
    );
    const res = spawnSync(
      NGINX!,
      ['-t', '-q', '-e', path.join(dir, 'error.log'), '-p', dir, '-c', path.join(dir, 'nginx.conf')],
      { encoding: 'utf8' },
    );
    assert.equal(
      res.status,
      0,
      `${res.stderr}\n${fs.existsSync(path.join(dir, 'error.log')) ? fs.readFileSync(path.join(dir, 'error.log'), 'utf8') : ''}`,
    );
    assert.equal(res.stderr.trim(), '', 'no warnings');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the example environment file names only variables the server reads', () => {
  const env = fs.readFileSync(path.join(DEPLOY, 'content-site.env.example'), 'utf8');
  const names = [...env.matchAll(/^#?([A-Z_]+)=/gm)].map((m) => m[1]!);
  const config = fs.readFileSync(path.join(ROOT, 'src/config.ts'), 'utf8');
  for (const name of names) assert.ok(config.includes(`env.${name}`), `${name} is read by src/config.ts`);
  assert.ok(names.includes('SITE_URL') && names.includes('DATABASE_URL'));
});
