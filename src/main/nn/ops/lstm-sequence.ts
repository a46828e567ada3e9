// A whole-sequence LSTM as one ONNX `LSTM` node, for inference graphs: the unrolled cells of
// blocks/lstm.ts and nn/blocks/grouped-lstm.ts are what autodiff needs, but an encoder
// of a 270-token bucket unrolled that way is thousands of nodes, and onnxruntime's session
// build time grows faster than linearly with the node count; one LSTM node compiles at once
// and runs in onnxruntime's own kernel. No VJP: training graphs keep the unrolled cells.
// Weights come in the unrolled cells' layout — Wx [F, 4H], b [4H], Wh [H, 4H], gate order
// [i, f, o, g] — and are rearranged in the graph to ONNX's W [1, 4H, F], R [1, 4H, H],
// B [1, 8H] with gate order [i, o, f, c] (the recurrent bias is zero). The input is
// [B, T, F] (right-padded; positions after a sequence's end do not affect its outputs in
// the forward direction); the output is [B, T, H], the hidden state at every step.
import { defop, type Value } from '../graph.ts';
import { concat, split } from './select.ts';
import { squeeze, transpose, unsqueeze, zerosLike } from './core.ts';
import { attrInt, req } from './shape-rules.ts';

/** [..., 4H] blocks [i, f, o, g] → [i, o, f, g] along the last axis. */
function onnxGateOrder(w: Value, hidden: number): Value {
  const [i, f, o, g] = split(w, [hidden, hidden, hidden, hidden], w.rank - 1);
  return concat([i, o, f, g], w.rank - 1);
}

/** h_t for t = 1…T of a left-to-right LSTM over x [B, T, F]: [B, T, H]. */
export function lstmSequence(x: Value, wx: Value, b: Value, wh: Value): Value {
  const hidden = wh.dim(0) as number;
  const W = unsqueeze(transpose(onnxGateOrder(wx, hidden), [1, 0]), [0]);
  const R = unsqueeze(transpose(onnxGateOrder(wh, hidden), [1, 0]), [0]);
  const bias = onnxGateOrder(b, hidden);
  const B = unsqueeze(concat([bias, zerosLike(bias)], 0), [0]);
  const [y] = x.graph.apply('LSTM', [transpose(x, [1, 0, 2]), W, R, B], { hidden_size: hidden, direction: 'forward' });
  return transpose(squeeze(y, [1]), [1, 0, 2]);
}

defop('LSTM', {
  infer: ([x, , r], attrs) => {
    const xs = req(x, 'LSTM').shape;
    req(r, 'LSTM');
    return [{ dtype: x!.dtype, shape: [xs[0], 1, xs[1], attrInt(attrs, 'hidden_size')] }];
  },
});
