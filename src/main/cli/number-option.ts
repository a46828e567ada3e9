// A command-line option's value as a number, checked: a one-line UserError naming the flag,
// what it must be and what was given ("--epochs must be a positive integer, got "x"").
import { UserError } from '../errors.ts';

export function numberOption(flag: string, v: string, ok: (x: number) => boolean, what: string): number {
  const x = Number(v);
  if (v.trim() === '' || !ok(x)) throw new UserError(`${flag} must be ${what}, got "${v}"`);
  return x;
}
