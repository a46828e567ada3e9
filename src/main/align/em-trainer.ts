// The EM schedule of both directions and their models' parameters, kept by the thread that
// runs the training (runner.ts) while the slices (em-slice.ts) do the E-steps and the
// lexicon M-steps. Iteration it: step(it) says what every slice does, with the current
// model parameters; absorb() sums the slices' model statistics and re-estimates the models.
// The posteriors of the last E-step are decoded. A plan with zero iterations (saved model)
// runs one E-step without learning. When the caller does not keep the model, the last E-step
// only decodes: the counts it would gather feed nothing but the saved tables.
import type { DirectionalModel, ModelParams } from './directional-model.ts';
import type { EmStep, SliceStepResult } from './em-slice.ts';
import { createModel } from './models/model-kinds.ts';
import type { TrainPlan } from './train-plans.ts';
import type { Direction } from './view.ts';

export class EmTrainer {
  readonly total: number;
  private readonly schedule: string[];
  private models: Record<Direction, DirectionalModel>;
  private learning = false;
  /** the tables start as newLexTables's uniform ones (no saved model) */
  private readonly uniformStart: boolean;
  /** the caller keeps the trained model: the last E-step gathers counts for its tables */
  private readonly keepModel: boolean;

  constructor(plan: TrainPlan, init: Partial<Record<Direction, ModelParams>> = {}, o: { keepModel?: boolean } = {}) {
    this.keepModel = o.keepModel ?? true;
    this.schedule = plan.stages.flatMap((s) => Array<string>(s.iterations).fill(s.model));
    this.total = Math.max(1, this.schedule.length);
    const model = (saved?: ModelParams) => {
      const first = this.schedule[0] ?? saved?.kind ?? 'ibm1';
      return createModel(first, saved?.kind === first ? saved : undefined);
    };
    this.models = { fwd: model(init.fwd), rev: model(init.rev) };
    this.uniformStart = !init.fwd && !init.rev;
  }

  step(it: number): EmStep {
    const kind = this.schedule[it];
    if (kind && kind !== this.models.fwd.kind) this.models = { fwd: createModel(kind), rev: createModel(kind) };
    const maximize = this.learning;
    const decode = it === this.total - 1;
    this.learning = kind !== undefined && (this.keepModel || !decode);
    const uniform = it === 0 && this.uniformStart && kind === 'ibm1' && !decode;
    return { maximize, learn: this.learning, decode, uniform, params: this.params() };
  }

  /** Whether the lexicons still wait for the M-step of the last iteration's counts. */
  get pendingMaximize(): boolean {
    return this.learning;
  }

  absorb(results: readonly SliceStepResult[]): void {
    if (!this.learning) return;
    for (const dir of ['fwd', 'rev'] as const) {
      for (const r of results) this.models[dir].addStats(r.stats[dir]);
      this.models[dir].update();
    }
  }

  params(): Record<Direction, ModelParams> {
    return { fwd: this.models.fwd.save(), rev: this.models.rev.save() };
  }
}
