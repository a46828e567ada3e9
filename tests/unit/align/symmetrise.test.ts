// Each symmetrisation heuristic on hand-worked 3×3 and 4×4 cases.
import { describe, expect, test } from 'vitest';
import { decodePair } from '../../../src/main/align/decode.ts';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { Q } from '../../../src/main/align/pair-posteriors.ts';
import { symmetriser } from '../../../src/main/align/symmetrise.ts';

/** Links "i-j" → I×J matrix, and back. */
function matrix(I: number, J: number, links: string): Uint8Array {
  const m = new Uint8Array(I * J);
  for (const l of links.split(' ').filter(Boolean)) {
    const [i, j] = l.split('-').map(Number);
    m[i * J + j] = 1;
  }
  return m;
}
function links(m: Uint8Array, J: number): string {
  const out: string[] = [];
  m.forEach((v, x) => v && out.push(`${Math.floor(x / J)}-${x % J}`));
  return out.join(' ');
}

// 5×5. fwd: 0-0 1-1 1-2 4-4 ; rev: 0-0 1-1 4-3 3-4 ; intersect {0-0, 1-1}.
// grow-diag: 1-2 is a union point next to 1-1 whose target 2 is unaligned → added; no
//   other union point touches the grown set (4-3, 3-4, 4-4 are far away).
// grow-diag-final: fwd 4-4 (source 4 unaligned) → added; rev 4-3 (target 3 unaligned) →
//   added; rev 3-4 (source 3 unaligned) → added.
// grow-diag-final-and: fwd 4-4 (both unaligned) → added; rev 4-3 (source 4 now aligned)
//   and 3-4 (target 4 now aligned) → not added.
const I = 5,
  J = 5;
const input = { I, J, fwd: matrix(I, J, '0-0 1-1 1-2 4-4'), rev: matrix(I, J, '0-0 1-1 4-3 3-4'), mean: new Float32Array(I * J) };

describe('symmetrisation, hand-worked', () => {
  test.each([
    ['intersect', '0-0 1-1'],
    ['union', '0-0 1-1 1-2 3-4 4-3 4-4'],
    ['grow-diag', '0-0 1-1 1-2'],
    ['grow-diag-final', '0-0 1-1 1-2 3-4 4-3 4-4'],
    ['grow-diag-final-and', '0-0 1-1 1-2 4-4'],
    ['gdfa', '0-0 1-1 1-2 4-4'],
    ['fwd', '0-0 1-1 1-2 4-4'],
    ['rev', '0-0 1-1 3-4 4-3'],
  ])('%s', (name, want) => {
    expect(links(symmetriser(name)(input), J)).toBe(want);
  });

  test('grow-diag grows along diagonals, chaining through added points', () => {
    // intersect 0-0; union adds 1-1 (diagonal, both free), then 2-2 next to 1-1.
    const m = { I: 3, J: 3, fwd: matrix(3, 3, '0-0 1-1 2-2'), rev: matrix(3, 3, '0-0'), mean: new Float32Array(9) };
    expect(links(symmetriser('grow-diag')(m), 3)).toBe('0-0 1-1 2-2');
  });

  test('final adds a point with one free word, final-and only with both free', () => {
    // fwd 0-0 0-2, rev 0-0 (3×3): 0-2 is not adjacent to 0-0.
    const m = { I: 3, J: 3, fwd: matrix(3, 3, '0-0 0-2'), rev: matrix(3, 3, '0-0'), mean: new Float32Array(9) };
    expect(links(symmetriser('grow-diag-final')(m), 3)).toBe('0-0 0-2'); // target 2 unaligned
    expect(links(symmetriser('grow-diag-final-and')(m), 3)).toBe('0-0'); // source 0 aligned
  });

  test('post keeps cells whose mean posterior reaches the threshold', () => {
    const mean = Float32Array.from([0.9, 0.2, 0.5, 0.49]);
    const m = { I: 2, J: 2, fwd: new Uint8Array(4), rev: new Uint8Array(4), mean };
    expect(links(symmetriser('post')(m), 2)).toBe('0-0 1-0');
    expect(links(symmetriser('post')({ ...m, threshold: 0.15 }), 2)).toBe('0-0 0-1 1-0 1-1');
  });

  test('an unknown name is a user error', () => {
    expect(() => symmetriser('diag')).toThrow(/unknown symmetrisation "diag"/);
  });
});

test('a low posterior threshold may keep more than I + J links', async () => {
  const src = [['a', 'b', 'c']],
    tgt = [['x', 'y', 'z']];
  const { links } = await alignCorpus(src, tgt, { method: 'ibm1', sym: 'post', threshold: 0.01 });
  expect(links[0]).toHaveLength(9);
});

test('after agreement training, MAP links need a mean posterior of 0.5 to enter gdfa', () => {
  // 2×2 pair, cells source-major (0-0, 0-1, 1-0, 1-1). fwd MAP: 0-0 and 1-1 (0.6, mean 0.4);
  // rev MAP: 0-0 and 1-0 (0.6, mean 0.35). Unfiltered, gdfa grows 0-0 to both neighbours.
  // Each direction's cells, then its null posteriors.
  const q = (...p: number[]) => Uint16Array.from(p, (x) => Math.round(x * Q));
  const post = { I: 2, J: 2, fwd: q(0.9, 0, 0.1, 0.6, 0.1, 0.4), rev: q(0.9, 0.1, 0.6, 0.2, 0.1, 0.4) };
  const decode = (agreed: boolean) => {
    const { a } = decodePair(post, { sym: 'gdfa', agreed });
    return ['0-0', '0-1', '1-0', '1-1'].filter((_, x) => a[x]).join(' ');
  };
  expect(decode(false)).toBe('0-0 1-0 1-1');
  expect(decode(true)).toBe('0-0');
});
