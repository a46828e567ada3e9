// formatDuration (shared/duration.ts): the one way a duration is written, in the Train
// dialog's estimate and in a training job's progress line.
import { expect, test } from 'vitest';
import { formatDuration } from '../../../src/shared/duration.ts';

test('seconds below 90 s, minutes below 90 min, hours and minutes above', () => {
  expect([formatDuration(0), formatDuration(12.4), formatDuration(59.6), formatDuration(89.4)]).toEqual(['0 s', '12 s', '60 s', '89 s']);
  expect([formatDuration(90), formatDuration(600), formatDuration(3725), formatDuration(5369)]).toEqual([
    '2 min',
    '10 min',
    '62 min',
    '89 min',
  ]);
  expect([formatDuration(5400), formatDuration(7800), formatDuration(86_400)]).toEqual(['1 h 30 min', '2 h 10 min', '24 h 0 min']);
});

test('a negative remainder (a step past the estimate) reads as no time left', () => {
  expect(formatDuration(-3)).toBe('0 s');
});
