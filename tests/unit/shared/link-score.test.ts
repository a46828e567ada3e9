// How a link score is shown: never above its true value, so "0.90" beside "≥ 0.9" means the
// bulk accept takes it.
import { describe, expect, test } from 'vitest';
import { formatScore, LINK_THRESHOLD } from '../../../src/shared/link-score.ts';

describe('formatScore', () => {
  test('rounds down to two decimals', () => {
    expect(formatScore(0.8961)).toBe('0.89');
    expect(formatScore(0.9)).toBe('0.90');
    expect(formatScore(0.999)).toBe('0.99');
    expect(formatScore(1)).toBe('1.00');
    expect(formatScore(0)).toBe('0.00');
    // Binary fractions just under a hundredth (0.29 is 0.28999…) still show as themselves.
    expect(formatScore(0.29)).toBe('0.29');
    expect(formatScore(0.57)).toBe('0.57');
  });

  test('a score shown at or above the threshold is one the bulk accept takes', () => {
    for (let k = 0; k <= 10_000; k++) {
      const score = k / 10_000;
      expect(Number(formatScore(score)) >= LINK_THRESHOLD, String(score)).toBe(score >= LINK_THRESHOLD);
    }
  });
});
