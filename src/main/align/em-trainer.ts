// EM training of one direction, stepped one iteration at a time so that a caller can run
// both directions side by side (in two worker threads, or interleaved in one thread) and
// exchange posteriors between the E- and M-steps for agreement training.
//
// Iteration it: expect() runs the E-step with the current parameters (posteriors are
// written to the shared arrays, counts kept unless agreement will supply them); agree()
// adds the agreement counts once the other direction's posteriors are complete;
// maximize() re-estimates lexicon and model. The posteriors of the last E-step are the
// output. A plan with zero iterations (saved model) runs one E-step without learning.
import type { Constraints } from './constraints.ts';
import { agreementCounts, eStep, type Posteriors } from './estep.ts';
import { LexTable, type Lexicon } from './translation-table.ts';
import type { TrainPlan } from './train-plans.ts';
import type { DirectionalModel, ModelParams } from './directional-model.ts';
import { createModel } from './models/model-kinds.ts';
import type { View } from './view.ts';

export interface TrainerInit {
  lex?: Lexicon;
  params?: ModelParams;
}

export interface TrainerIO {
  out: Posteriors;
  constraints: Constraints;
  /** prior pseudo-counts per lexical pair id (dictionary, orthography), or null */
  prior: Float32Array | null;
}

export class DirectionTrainer {
  readonly total: number;
  private readonly schedule: string[];
  private lex: LexTable;
  private model: DirectionalModel;
  private learning = false;

  constructor(
    private readonly v: View,
    private readonly plan: TrainPlan,
    private readonly io: TrainerIO,
    init: TrainerInit = {},
  ) {
    this.schedule = plan.stages.flatMap((s) => Array<string>(s.iterations).fill(s.model));
    this.total = Math.max(1, this.schedule.length);
    this.lex = new LexTable(v, init.lex);
    const first = this.schedule[0] ?? init.params?.kind ?? 'ibm1';
    this.model = createModel(first, init.params?.kind === first ? init.params : undefined);
  }

  get agreement(): boolean {
    return this.plan.agreement && this.schedule.length > 0;
  }

  expect(it: number): void {
    const kind = this.schedule[it];
    if (kind && kind !== this.model.kind) this.model = createModel(kind);
    const learn = (this.learning = kind !== undefined);
    if (learn) this.lex.resetCounts();
    const count = learn && !this.agreement;
    eStep({ v: this.v, lex: this.lex, model: this.model, out: this.io.out, constraints: this.io.constraints, count, learn });
  }

  agree(other: Uint16Array): void {
    if (this.learning) agreementCounts(this.v, this.io.out, other, this.lex);
  }

  maximize(): void {
    if (!this.learning) return;
    this.lex.mStep(this.io.prior);
    this.model.update();
    this.learning = false;
  }

  result(): { lex: Lexicon; params: ModelParams } {
    return { lex: this.lex.toLexicon(), params: this.model.save() };
  }
}
