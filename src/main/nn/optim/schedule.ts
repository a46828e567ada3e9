// Learning-rate schedules: step (0-based) → rate. Linear warm-up from 0 to the base rate
// over `warmup` steps, then constant, linear decay or cosine decay to `minRatio`·base
// at `total` steps:  cosine: lr = base·(r + (1−r)·½(1 + cos(π·p))), p = progress in [0, 1].
export type Schedule = (step: number) => number;

export interface ScheduleConfig {
  base: number;
  warmup?: number;
  total?: number;
  decay?: 'constant' | 'linear' | 'cosine';
  minRatio?: number;
}

export function makeSchedule(c: ScheduleConfig): Schedule {
  const warmup = c.warmup ?? 0;
  const r = c.minRatio ?? 0;
  return (step: number) => {
    if (step < warmup) return (c.base * (step + 1)) / warmup;
    if (!c.total || c.decay === undefined || c.decay === 'constant') return c.base;
    const p = Math.min(1, (step - warmup) / Math.max(1, c.total - warmup));
    const f = c.decay === 'linear' ? 1 - p : 0.5 * (1 + Math.cos(Math.PI * p));
    return c.base * (r + (1 - r) * f);
  };
}
