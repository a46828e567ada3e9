// Gradient checks (float64, finite differences) for the neural aligner's own graph pieces:
// the grouped LSTM, the contrastive view loss and the word-level supervision losses; and
// the choice of supervision links.
import { describe, expect, test } from 'vitest';
import { viewLoss } from '../../../../src/main/models/bilstm/contrastive.ts';
import { groupedLstm } from '../../../../src/main/nn/blocks/grouped-lstm.ts';
import { supervision } from '../../../../src/main/models/bilstm/method.ts';
import { awpLoss, rejectedLoss, type SupervisionInputs, wtrLoss } from '../../../../src/main/models/bilstm/supervision.ts';
import { Graph, Rng, Scope, Tensor, floats, int64s, type Value } from '../../../../src/main/nn/index.ts';
import { gradcheck } from '../../helpers/gradcheck.ts';
import { add, concat, l2Normalize } from '../../../../src/main/nn/ops/all-ops.ts';

const rng = new Rng(7);
const t = (shape: number[]) =>
  new Tensor(
    'float64',
    Float64Array.from({ length: shape.reduce((a, b) => a * b, 1) }, () => rng.normal()),
    shape,
  );
const scope = (g: Graph) => new Scope(g, new Rng(5), 'float64');
const c = (g: Graph, v: number[], shape: number[]) => g.constant(floats(v, shape, 'float64'));

function sup(g: Graph, us: Value, ut: Value): SupervisionInputs {
  return {
    us,
    ut,
    maskS: c(g, [1, 1, 1, 1, 1, 0], [2, 3]),
    maskT: c(g, [1, 1, 0, 1, 1, 1], [2, 3]),
    gold: c(g, [1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0], [2, 3, 3]),
    rejected: c(g, [0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0], [2, 3, 3]),
  };
}

type Row = [name: string, build: (g: Graph, x: Value[]) => Value, inputs: Tensor[]];

const rows: Row[] = [
  [
    'grouped LSTM, two groups sharing weights and one apart',
    (g, [x, y]) => {
      const s = scope(g);
      const [a, b, d] = groupedLstm([s.sub('p'), s.sub('p'), s.sub('q')], [x, y, x], 2);
      return concat([a, b, d], 2);
    },
    [t([2, 3, 2]), t([2, 3, 2])],
  ],
  ['view loss, inter-view', (_, [q, k]) => viewLoss(l2Normalize(q), l2Normalize(k), false, 0.5), [t([3, 4]), t([3, 4])]],
  ['view loss, inter + intra-view', (_, [q, k]) => viewLoss(l2Normalize(q), l2Normalize(k), true, 0.5), [t([3, 4]), t([3, 4])]],
  [
    'WTR + rejected links',
    (g, [us, ut]) => add(wtrLoss(sup(g, us, ut), 0.5), rejectedLoss(sup(g, us, ut), 0.5)),
    [t([2, 3, 4]), t([2, 3, 4])],
  ],
  [
    'AWP',
    (g, [us, ut, es, et]) => {
      const ids = g.constant(int64s([0, 1, 2, 2, 1, 0], [2, 3]));
      return awpLoss(scope(g), sup(g, us, ut), { tableS: es, tableT: et, idsS: ids, idsT: ids });
    },
    [t([2, 3, 4]), t([2, 3, 4]), t([3, 4]), t([3, 4])],
  ],
];

describe('neural aligner pieces match finite differences (float64)', () => {
  test.each(rows)('%s', async (_name, build, inputs) => {
    expect(await gradcheck(build, inputs)).toBeLessThan(1e-6);
  });
});

test('supervision: gold links where given, else confident model links', () => {
  const link = (s: number, t: number, score: number) => ({ s, t, kind: 'sure' as const, score });
  const d = {
    src: [['a'], ['b'], ['c']],
    tgt: [['x'], ['y'], ['z']],
    gold: [[{ s: 0, t: 0 }], undefined, []],
    modelLinks: [[link(0, 0, 0.2)], [link(0, 0, 0.95), link(0, 1, 0.5)], [link(0, 0, 0.91)]],
  };
  expect(supervision(d)).toEqual([[{ s: 0, t: 0 }], [link(0, 0, 0.95)], [link(0, 0, 0.91)]]);
  expect(supervision({ ...d, threshold: 0.92 })?.[2]).toEqual([]);
});
