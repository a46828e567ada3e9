// The command-line options of a benchmark (`npm run bench -- NAME --option value …`), read
// with node:util's parseArgs: each bench states its options once, with their defaults; an
// unknown or misspelt option stops the run with the list of known ones instead of being
// ignored (a misspelt `--epoch 2` used to run the default 20 epochs), and `--help` prints
// that list.
import { parseArgs, type ParseArgsConfig } from 'node:util';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The bench's usage line: its options, each with its default. */
function usage(bench: string, options: Options): string {
  const one = ([name, o]: [string, Options[string]]) =>
    o.type === 'boolean' ? `[--${name}]` : `[--${name} ${o.default === undefined ? 'V' : JSON.stringify(o.default)}]`;
  return `npm run bench -- ${bench} ${Object.entries(options).map(one).join(' ')}`;
}

/**
 * The values of `options` given in `args` (defaults filled in), or null after printing the
 * usage when `args` asks for `--help`. Throws on an unknown option, a missing value or a
 * positional argument.
 */
export function benchOptions<const O extends Options>(bench: string, args: string[], options: O) {
  if (args.includes('--help')) {
    console.log(usage(bench, options));
    return null;
  }
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (e) {
    throw new Error(`${(e as Error).message}\nusage: ${usage(bench, options)}`);
  }
}

/** The items of a comma-separated list option (none for an empty string). */
export function listOption(value: string | undefined): string[] {
  return (value ?? '').split(',').filter(Boolean);
}

/** A number option's value (undefined when not given); throws when it is not a number. */
export function numberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new Error(`--${name}: "${value}" is not a number`);
  return n;
}

/** A list option's items as numbers. */
export function numberList(name: string, value: string | undefined): number[] {
  return listOption(value).map((x) => numberOption(name, x)!);
}
