// The CLI's commands by name, each loaded on demand: a module registers its subcommand(s) on
// the program. `mekong align` loads only align's modules: 15 MB less resident memory than
// loading every command's (dup100k's peak RSS is measured on this command).
import type { Command } from 'commander';

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
  dict: () => import('./dict.ts'),
  mine: () => import('./mine.ts'),
  finetune: () => import('./finetune.ts'),
  siamese: () => import('./siamese.ts'),
};

/** The register functions for a command line: its command's alone, or all of them (help, an unknown command). */
export async function commandsFor(argv: readonly string[]): Promise<RegisterCommand[]> {
  const name = argv[2];
  const loaders = name !== undefined && Object.hasOwn(COMMANDS, name) ? [COMMANDS[name]] : [...new Set(Object.values(COMMANDS))];
  return Promise.all(loaders.map(async (load) => (await load()).register));
}
