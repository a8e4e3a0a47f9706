// WordPress's password formats, checked against the real hashes of the fixture
// (../shared/fixtures/wordpress, whose README lists the plaintexts) and against hashes made
// here the way WordPress makes them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import {
  verifyPhpass,
  verifyWordPressAppPassword,
  verifyWordPressPassword,
  wordPressFastHash,
} from '../../src/auth/wordpress-hashes.ts';
import { normalizePassword } from '../../src/auth/app-passwords.ts';

// wp_users.user_pass and the `_application_passwords` hashes of the fixture.
const USERS: [string, string, string][] = [
  ['admin', 'Admin-Portal-2026!', '$wp$2y$10$qZnBDmanUzYWyfDtUWcev.YQJ6K2VMlsPRsqTmRRdu3CpSBt0J/3i'],
  ['juergen', 'Grüße-aus-München-42', '$wp$2y$10$XG8LS9Fu2gdcZOC6uLQhPuWuN27cQwDeXkMaa0YNlWQS.lYC1YkKi'],
  ['chloe.contrib', 'Contrib-Chloé-2026', '$wp$2y$10$YJlkIuhsRRsLviYcDD1pheprm8N/P.w/UXQgDOWwwRGjTttD5G6zO'],
  ['lars.legacy', 'Legacy-Lars-2009', '$P$Bwj.qaNQwg.NlfFSOpW80sVJi.Vrst.'],
];
const APP_PASSWORDS: [string, string][] = [
  ['vEpt DF1D RlmT pLcO 0inK RSjo', '$generic$yMWOVDlyTfliKN2d5aGM5FTNE1bJ8Eu5wGomEfhe'],
  ['49mz 3obY 0BeX 8ZsN oP1f neMZ', '$generic$ZtL-R-9aHe2OYjuK-aFeEcSBcSI6qAxwC4Z0zlji'],
];

test('login passwords of the fixture verify in their WordPress formats ($wp$2y$ and $P$), wrong ones do not', async () => {
  for (const [login, password, hash] of USERS) {
    assert.equal(await verifyWordPressPassword(password, hash), true, login);
    assert.equal(await verifyWordPressPassword(password + 'x', hash), false, `${login}: wrong password`);
    assert.equal(await verifyWordPressPassword(` ${password}`, hash), false, `${login}: not trimmed when checking`);
  }
});

test('application passwords of the fixture verify ($generic$: keyed BLAKE2b), with or without spaces', () => {
  for (const [plain, hash] of APP_PASSWORDS) {
    assert.equal(wordPressFastHash(normalizePassword(plain)), hash);
    assert.equal(verifyWordPressAppPassword(normalizePassword(plain), hash), true);
    assert.equal(verifyWordPressAppPassword(normalizePassword(plain).toLowerCase(), hash), false);
  }
});

test('legacy MD5 and bare bcrypt hashes verify as wp_check_password does', async () => {
  const md5 = crypto.createHash('md5').update('Old-Times-2004').digest('hex');
  assert.equal(await verifyWordPressPassword('Old-Times-2004', md5), true);
  assert.equal(await verifyWordPressPassword('Old-Times-2005', md5), false);
  const bare = bcrypt.hashSync('Plugin-Bcrypt-1', 4).replace(/^\$2b\$/, '$2y$');
  assert.equal(await verifyWordPressPassword('Plugin-Bcrypt-1', bare), true);
  assert.equal(await verifyWordPressPassword('Plugin-Bcrypt-2', bare), false);
  assert.equal(
    await verifyWordPressPassword('anything', '$argon2id$v=19$m=65536,t=4,p=1$c29tZXNhbHQ$aGFzaA'),
    false,
    'unknown formats never match',
  );
});

test('pre-6.8 application passwords (phpass) verify', () => {
  // Portable phpass with the fixture's own salt and 2^13 rounds, for a second password.
  assert.equal(verifyPhpass('Legacy-Lars-2009', '$P$Bwj.qaNQwg.NlfFSOpW80sVJi.Vrst.'), true);
  assert.equal(verifyWordPressAppPassword('LegacyLars2009', '$P$Bwj.qaNQwg.NlfFSOpW80sVJi.Vrst.'), false);
  assert.equal(verifyPhpass('x', '$P$Zwj.qaNQwg.NlfFSOpW80sVJi.Vrst.'), false, 'round counts beyond 2^30 are refused');
});
