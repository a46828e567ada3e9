// What a model alignment's calibration records (shown as a reliability diagram on the
// Models page): the gold it was fitted on, and reliability bins with the expected
// calibration error before and after (the "after" cross-fitted: eval/calibration.ts).

export interface ReliabilityBin {
  lo: number;
  hi: number;
  count: number;
  /** Mean score of the bin's links. */
  confidence: number;
  /** Share of the bin's links the gold holds. */
  accuracy: number;
}

export interface Calibration {
  /** Held-out pairs (dev and test splits) with gold, and the model links on them. */
  pairs: number;
  links: number;
  raw: ReliabilityBin[];
  calibrated: ReliabilityBin[];
  eceRaw: number;
  eceCalibrated: number;
  /** Whether the stored scores are the calibrated ones: only when asked for and calibrating lowered the (cross-fitted) ECE. */
  applied: boolean;
}
