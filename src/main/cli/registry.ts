// The list of CLI commands. Each module registers its subcommand(s) on the program.
import type { Command } from 'commander';

export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [];
