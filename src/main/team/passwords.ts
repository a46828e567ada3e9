// Team accounts' passwords: hashed with scrypt (node:crypto; memory-hard, so a stolen team
// file is expensive to brute-force on GPUs) and compared in constant time. Parameters:
// N = 2^15, r = 8, p = 1 (32 MiB and ~0.1 s per hash on one core), a 16-byte random salt and
// a 32-byte key; they are stored with each hash (`scrypt$N$r$p$salt$key`, base64url), so a
// later change of parameters still verifies older hashes. Hashing runs on libuv's thread
// pool (async scrypt), not on the server's thread. Passwords are generated, never chosen:
// 20 base64url characters (120 bits), printed once by `mekong user add|reset`.
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

const N = 2 ** 15;
const R = 8;
const P = 1;
const KEY_BYTES = 32;

function derive(password: string, salt: Buffer, o: { N: number; r: number; p: number }): Promise<Buffer> {
  // maxmem above the 128·N·r bytes scrypt needs (Node's default of 32 MiB is just under it)
  const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 256 * o.N * o.r };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_BYTES, options, (e, key) => (e ? reject(e) : resolve(key))),
  );
}

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const key = await derive(password, salt, { N, r: R, p: P });
  return ['scrypt', N, R, P, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` matches `stored`; false for a malformed hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [kind, n, r, p, salt, key] = stored.split('$');
  if (kind !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64url');
  const given = await derive(password, Buffer.from(salt, 'base64url'), { N: Number(n), r: Number(r), p: Number(p) });
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/** A fresh one-time password: 120 random bits. */
export function newPassword(): string {
  return randomBytes(15).toString('base64url');
}

/**
 * A hash that matches no password, verified against when a login names an unknown account, so
 * that a wrong name and a wrong password take the same time.
 */
export const UNKNOWN_ACCOUNT_HASH = `scrypt$${N}$${R}$${P}$${Buffer.alloc(16).toString('base64url')}$${Buffer.alloc(KEY_BYTES).toString('base64url')}`;
