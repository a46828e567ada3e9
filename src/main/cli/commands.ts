// The CLI's commands by name, each loaded on demand: a module registers its subcommand(s) on
// the program. `mekong align` loads only align's modules: 15 MB less resident memory than
// loading every command's (dup100k's peak RSS is measured on this command). runCommandLine
// runs one command line and turns its errors into one line: what `mekong` does (cli.ts), and
// what tests call to run a command in their own process.
import { Command, CommanderError } from 'commander';
import { asUserError } from '../errors.ts';

export type RegisterCommand = (program: Command) => void;

type Loader = () => Promise<{ register: RegisterCommand }>;

const project: Loader = () => import('./project.ts');

/** Top-level command name → its module (project.ts registers two). */
export const COMMANDS: Readonly<Record<string, Loader>> = {
  project,
  info: project,
  check: project,
  import: () => import('./import.ts'),
  export: () => import('./export.ts'),
  serve: () => import('./serve.ts'),
  align: () => import('./align.ts'),
  eval: () => import('./eval.ts'),
  lexicon: () => import('./lexicon.ts'),
  resegment: () => import('./resegment.ts'),
  words: () => import('./words.ts'),
  dict: () => import('./dict.ts'),
  mine: () => import('./mine.ts'),
  finetune: () => import('./finetune.ts'),
  siamese: () => import('./siamese.ts'),
  user: () => import('./user.ts'),
};

/** The register functions for a command line: its command's alone, or all of them (help, an unknown command). */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const name = argv[2];
  const loaders = name !== undefined && Object.hasOwn(COMMANDS, name) ? [COMMANDS[name]] : [...new Set(Object.values(COMMANDS))];
  return Promise.all(loaders.map(async (load) => (await load()).register));
}

/**
 * Runs `mekong` with `argv` (process.argv's shape). A failure is written as one line, the
 * error's own for a user's mistake (errors.ts asUserError) and the stack otherwise; returns
 * the exit code to end with, or null when the command succeeded and the process ends when its
 * work does (`mekong serve` keeps running).
 */
export async function runCommandLine(
  argv: readonly string[],
  writeError: (line: string) => void = (line) => process.stderr.write(line),
): Promise<number | null> {
  const program = new Command('mekong')
    .description('Mekong: word alignment studio for low-resource language pairs')
    .exitOverride()
    .configureOutput({ outputError: (s, write) => write(s) });
  for (const register of await commandsFor(argv)) register(program);
  try {
    await program.parseAsync(argv);
    return null;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 1;
    writeError(`mekong: ${asUserError(err)?.message ?? String((err as Error)?.stack ?? err)}\n`);
    return 1;
  }
}
