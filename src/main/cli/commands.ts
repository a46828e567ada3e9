// The list of CLI commands. Each module registers its subcommand(s) on the program.
import type { Command } from 'commander';
import { register as project } from './project.ts';
import { register as importCmd } from './import.ts';
import { register as exportCmd } from './export.ts';
import { register as serve } from './serve.ts';
import { register as align } from './align.ts';
import { register as evalCmd } from './eval.ts';
import { register as lexicon } from './lexicon.ts';
import { register as resegment } from './resegment.ts';
import { register as dict } from './dict.ts';
import { register as mine } from './mine.ts';
import { register as finetune } from './finetune.ts';
import { register as siamese } from './siamese.ts';

export type RegisterCommand = (program: Command) => void;

export const commands: RegisterCommand[] = [
  project,
  importCmd,
  exportCmd,
  serve,
  align,
  evalCmd,
  lexicon,
  resegment,
  dict,
  mine,
  finetune,
  siamese,
];
