// The one training loop (train/fit-loop.ts) on a family small enough to follow by hand: a
// model that is one number, each step moving it, and checkpoints that copy it. The loop's
// order of calls and events, its best checkpoint (lowest score), a cancel between steps
// (the checkpoints saved so far stay, nothing runs after it), a checkpoint saved as the
// cancel came (kept, not scored), early stopping, and its progress events.
import { expect, test } from 'vitest';
import { CancelledError } from '../../../src/main/errors.ts';
import { type Checkpoints, fit, type FitFamily } from '../../../src/main/train/fit-loop.ts';

/** A family whose model is a number; `log` records every call the loop makes, in order. */
function counter(epochs: number, stepsPerEpoch: number, log: string[], onStep: (step: number) => void = () => {}): FitFamily<number> {
  let value = 0;
  return {
    epochs,
    stepsPerEpoch,
    beginEpoch: (e) => void log.push(`begin ${e}`),
    step: ({ epoch, index, step }) => {
      log.push(`step ${epoch}.${index} (${step})`);
      onStep(step);
      value++;
      return 10 - step;
    },
    endEpoch: (e, loss) => {
      log.push(`end ${e} loss ${loss}`);
      return { value };
    },
    model: () => value,
  };
}

/** Checkpoints that keep each saved model and score epoch e by scores[e - 1]. */
function kept(every: number, scores: (number | null)[], log: string[], saved: Map<number, number>): Checkpoints<number> {
  return {
    every,
    save: (e, m) => {
      log.push(`save ${e}`);
      saved.set(e, m);
    },
    score: (e) => {
      log.push(`score ${e}`);
      const v = scores[e - 1];
      return v === null ? null : { value: v, metrics: { aer: v } };
    },
  };
}

const ctx = (
  signal = new AbortController().signal,
  progress: (p: { done: number; total: number; message?: string }) => void = () => {},
) => ({
  progress,
  signal,
});

test('epochs → steps → end of epoch → save → score → event, checkpoints every n epochs and at the last', async () => {
  const log: string[] = [];
  const saved = new Map<number, number>();
  const r = await fit(counter(3, 2, log), ctx(), {
    checkpoints: kept(2, [null, 0.5, 0.4], log, saved),
    onEvent: (e) =>
      void log.push(e.type === 'step' ? `event step ${e.step}` : `event epoch ${e.epoch} saved ${e.saved} score ${e.score?.value ?? '-'}`),
  });
  expect(log).toEqual([
    'begin 0',
    'step 0.0 (0)',
    'event step 1',
    'step 0.1 (1)',
    'event step 2',
    'end 0 loss 9.5',
    'event epoch 1 saved false score -',
    'begin 1',
    'step 1.0 (2)',
    'event step 3',
    'step 1.1 (3)',
    'event step 4',
    'end 1 loss 7.5',
    'save 2',
    'score 2',
    'event epoch 2 saved true score 0.5',
    'begin 2',
    'step 2.0 (4)',
    'event step 5',
    'step 2.1 (5)',
    'event step 6',
    'end 2 loss 5.5',
    'save 3',
    'score 3',
    'event epoch 3 saved true score 0.4',
  ]);
  expect([...saved]).toEqual([
    [2, 4],
    [3, 6],
  ]);
  expect(r).toEqual({
    epochs: 3,
    steps: 6,
    losses: [9.5, 7.5, 5.5],
    best: { epoch: 3, score: { value: 0.4, metrics: { aer: 0.4 } } },
    stoppedEarly: false,
  });
});

test('the best checkpoint is the lowest score; unscored checkpoints never are', async () => {
  const best: number[] = [];
  const r = await fit(counter(5, 1, []), ctx(), {
    checkpoints: kept(1, [0.5, 0.3, null, 0.4, 0.3], [], new Map()),
    onEvent: (e) => void (e.type === 'epoch' && e.best && best.push(e.epoch)),
  });
  expect(best).toEqual([1, 2]);
  expect(r.best?.epoch).toBe(2);
});

test('a cancel between steps stops before the next step; the checkpoints saved so far stay', async () => {
  const log: string[] = [];
  const saved = new Map<number, number>();
  const abort = new AbortController();
  // the fifth step (epoch 3's first) asks to cancel
  const run = fit(
    counter(4, 2, log, (step) => step === 4 && abort.abort()),
    ctx(abort.signal),
    { checkpoints: kept(1, [0.5, 0.4, 0.3, 0.2], log, saved) },
  );
  await expect(run).rejects.toBeInstanceOf(CancelledError);
  expect(log.at(-1)).toBe('step 2.0 (4)');
  expect([...saved.keys()]).toEqual([1, 2]);
});

test('a checkpoint saved as the cancel came is kept but not scored', async () => {
  const log: string[] = [];
  const saved = new Map<number, number>();
  const abort = new AbortController();
  const events: (number | null)[] = [];
  const run = fit(
    counter(3, 2, log, (step) => step === 3 && abort.abort()),
    ctx(abort.signal),
    {
      checkpoints: kept(1, [0.5, 0.4, 0.3], log, saved),
      onEvent: (e) => void (e.type === 'epoch' && events.push(e.score?.value ?? null)),
    },
  );
  await expect(run).rejects.toBeInstanceOf(CancelledError);
  expect([...saved.keys()]).toEqual([1, 2]);
  expect(log).not.toContain('score 2');
  expect(events).toEqual([0.5, null]);
});

test('early stop: after `patience` scored checkpoints in a row that did not beat the best', async () => {
  const log: string[] = [];
  const r = await fit(counter(6, 1, log), ctx(), { checkpoints: kept(1, [0.5, 0.4, 0.45, 0.46, 0.3, 0.2], log, new Map()), patience: 2 });
  expect(r).toMatchObject({ epochs: 4, steps: 4, stoppedEarly: true, best: { epoch: 2 } });
  expect(log).not.toContain('begin 4');
  // without patience the loop runs every epoch
  expect((await fit(counter(6, 1, []), ctx(), { checkpoints: kept(1, [0.5, 0.4, 0.45, 0.46, 0.3, 0.2], [], new Map()) })).epochs).toBe(6);
});

test('progress: one event per step, counted over the run when the fit is a later phase', async () => {
  const seen: { done: number; total: number; message?: string }[] = [];
  await fit(
    counter(2, 2, []),
    ctx(undefined, (p) => void seen.push(p)),
    { phase: { label: 'self-training epoch', firstStep: 10, runSteps: 14 } },
  );
  expect(seen.map((p) => [p.done, p.total])).toEqual([
    [11, 14],
    [12, 14],
    [13, 14],
    [14, 14],
  ]);
  expect(seen[0].message).toMatch(/^self-training epoch 1\/2 · loss 10\.00/);
  expect(seen[3].message).toMatch(/^self-training epoch 2\/2 · loss 7\.50/);
});
