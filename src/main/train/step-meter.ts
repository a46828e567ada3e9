// The progress line of a training job, e.g. "epoch 3/20 · loss 4.12 · 12.3 steps/s · ETA 80 s":
// loss is the mean of the current epoch so far, speed is measured over the last WINDOW
// steps (so graph compilation and checkpoint evaluation fade out of it quickly), and the
// ETA is the remaining steps at that speed.
import { formatDuration } from '../../shared/duration.ts';

const WINDOW = 20;

/** Which phase of a run a meter counts: its steps follow `firstStep` earlier ones; its line starts with `label` (default "epoch"). */
export interface MeterPhase {
  firstStep?: number;
  label?: string;
  /** the phase's steps when a step cap ends it before its epochs' */
  steps?: number;
}

export class StepMeter {
  private readonly times: number[] = [];
  private epochSum = 0;
  private epochSteps = 0;
  private readonly firstStep: number;
  private readonly label: string;
  private readonly steps: number;

  constructor(
    readonly stepsPerEpoch: number,
    readonly epochs: number,
    phase: MeterPhase = {},
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.firstStep = phase.firstStep ?? 0;
    this.label = phase.label ?? 'epoch';
    this.steps = Math.min(phase.steps ?? Infinity, stepsPerEpoch * epochs);
  }

  /** The run's step count at the end of this phase. */
  get total(): number {
    return this.firstStep + this.steps;
  }

  /** Records step `step` (1-based, counted over the run) and returns the progress line. */
  step(step: number, loss: number): string {
    if (this.epochSteps >= this.stepsPerEpoch) this.epochSum = this.epochSteps = 0;
    this.epochSum += loss;
    this.epochSteps++;
    this.times.push(this.clock());
    if (this.times.length > WINDOW + 1) this.times.shift();
    const epoch = Math.min(this.epochs, Math.ceil((step - this.firstStep) / Math.max(1, this.stepsPerEpoch)));
    const parts = [`${this.label} ${epoch}/${this.epochs}`, `loss ${(this.epochSum / this.epochSteps).toFixed(2)}`];
    const span = (this.times[this.times.length - 1] - this.times[0]) / 1000;
    if (span > 0) {
      const rate = (this.times.length - 1) / span;
      parts.push(`${rate.toFixed(1)} steps/s`, `ETA ${formatDuration((this.total - step) / rate)}`);
    }
    return parts.join(' · ');
  }
}
