// Password hashes as WordPress stores them, so that users and applications moved over from a
// WordPress site (src/import/wordpress) keep their credentials. Verification follows
// WordPress 6.8+'s wp_check_password() (wp-includes/pluggable.php) and wp_verify_fast_hash()
// (wp-includes/functions.php):
//
// - `$wp$2y$…`: bcrypt over base64(HMAC-SHA384(password, key "wp-sha384")), WordPress ≥ 6.8;
// - `$P$…` / `$H$…`: portable phpass (salted MD5 iterated 2^n times), WordPress < 6.8;
// - 32 characters or fewer: plain md5(password), WordPress < 2.5;
// - anything else: PHP's password_verify() (bare bcrypt from plugins or filters);
// - application passwords `$generic$…`: BLAKE2b keyed with "wp_fast_hash_6.8+", 30 bytes,
//   URL-safe base64 without padding; unprefixed ones are phpass (WordPress < 6.8).
//
// Sign-in replaces a user's WordPress hash by our scrypt one after the first success
// (login-password.ts); application-password hashes stay as they are (a fast hash is what we store too).
import crypto from 'node:crypto';
import bcrypt from 'bcryptjs';
import { blake2b } from '@noble/hashes/blake2.js';

/** WordPress refuses longer passwords before hashing anything (phpass and wp_check_password). */
const MAX_PASSWORD_BYTES = 4096;
const ITOA64 = './0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const FAST_HASH_PREFIX = '$generic$';
const FAST_HASH_KEY = Buffer.from('wp_fast_hash_6.8+');
const FAST_HASH_BYTES = 30;

function equalText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && crypto.timingSafeEqual(x, y);
}

/** phpass's own base64 (little-endian groups of 6 bits). */
function phpassEncode64(input: Buffer, count: number): string {
  let out = '';
  let i = 0;
  do {
    let value = input[i++]!;
    out += ITOA64[value & 0x3f];
    if (i < count) value |= input[i]! << 8;
    out += ITOA64[(value >> 6) & 0x3f];
    if (i++ >= count) break;
    if (i < count) value |= input[i]! << 16;
    out += ITOA64[(value >> 12) & 0x3f];
    if (i++ >= count) break;
    out += ITOA64[(value >> 18) & 0x3f];
  } while (i < count);
  return out;
}

/** phpass CheckPassword() of a portable hash (`$P$` or `$H$`, then the log2 of rounds, 8 salt characters, 22 of hash). */
export function verifyPhpass(password: string, stored: string): boolean {
  const secret = Buffer.from(password, 'utf8');
  if (secret.length > MAX_PASSWORD_BYTES || stored.length !== 34) return false;
  const id = stored.slice(0, 3);
  if (id !== '$P$' && id !== '$H$') return false;
  const log2 = ITOA64.indexOf(stored[3]!);
  if (log2 < 7 || log2 > 30) return false;
  const salt = Buffer.from(stored.slice(4, 12), 'latin1');
  let hash = crypto.createHash('md5').update(salt).update(secret).digest();
  for (let rounds = 2 ** log2; rounds > 0; rounds--)
    hash = crypto.createHash('md5').update(hash).update(secret).digest();
  return equalText(stored.slice(0, 12) + phpassEncode64(hash, 16), stored);
}

/** PHP's password_verify() for bcrypt (`$2y$` is `$2b$` under another name); asynchronous, as bcryptjs yields while it works. */
async function verifyBcrypt(secret: string, stored: string): Promise<boolean> {
  if (!/^\$2[aby]\$\d\d\$[./A-Za-z0-9]{53}$/.test(stored)) return false;
  return bcrypt.compare(secret, `$2b$${stored.slice(4)}`);
}

/** wp_check_password(): whether `password` matches a user's stored WordPress hash. */
export async function verifyWordPressPassword(password: string, stored: string): Promise<boolean> {
  if (stored.length <= 32) return equalText(stored, crypto.createHash('md5').update(password, 'utf8').digest('hex'));
  if (Buffer.byteLength(password, 'utf8') > MAX_PASSWORD_BYTES) return false;
  if (stored.startsWith('$wp')) {
    const prehash = crypto.createHmac('sha384', 'wp-sha384').update(password, 'utf8').digest('base64');
    return verifyBcrypt(prehash, stored.slice(3));
  }
  if (stored.startsWith('$P$') || stored.startsWith('$H$')) return verifyPhpass(password, stored);
  return verifyBcrypt(password, stored);
}

/** wp_fast_hash(): the `$generic$` hash of a message. */
export function wordPressFastHash(message: string): string {
  const digest = blake2b(Buffer.from(message, 'utf8'), { key: FAST_HASH_KEY, dkLen: FAST_HASH_BYTES });
  return FAST_HASH_PREFIX + Buffer.from(digest).toString('base64url');
}

/** wp_verify_fast_hash(): application passwords (already stripped of everything but letters and digits). */
export function verifyWordPressAppPassword(password: string, stored: string): boolean {
  if (stored.startsWith(FAST_HASH_PREFIX)) return equalText(wordPressFastHash(password), stored);
  return verifyPhpass(password, stored);
}
