// Hashing of user (interactive login) passwords: scrypt with a random salt, self-describing
// format `$scrypt$N=…,r=…,p=…$<salt>$<hash>` so the cost can be raised later without
// breaking stored hashes.
import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { verifyWordPressPassword } from './wordpress-hashes.ts';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

const COST = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await scrypt(password, salt, KEY_LENGTH, COST);
  return `$scrypt$N=${COST.N},r=${COST.r},p=${COST.p}$${salt.toString('base64url')}$${hash.toString('base64url')}`;
}

/** Whether a stored hash is in another format than ours (a WordPress one): replaced after the next successful sign-in. */
export function needsRehash(stored: string): boolean {
  return !stored.startsWith('$scrypt$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (needsRehash(stored)) return verifyWordPressPassword(password, stored);
  const m = /^\$scrypt\$N=(\d+),r=(\d+),p=(\d+)\$([A-Za-z0-9_-]+)\$([A-Za-z0-9_-]+)$/.exec(stored);
  if (!m) return false;
  const expected = Buffer.from(m[5]!, 'base64url');
  const N = Number(m[1]),
    r = Number(m[2]),
    p = Number(m[3]);
  const actual = await scrypt(password, Buffer.from(m[4]!, 'base64url'), expected.length, {
    N,
    r,
    p,
    maxmem: 256 * N * r + 1024 * 1024,
  });
  return crypto.timingSafeEqual(actual, expected);
}
