// Contextual word vectors set in the plane, with neighbours known by hand (no model: the
// vectors are what a trained model's embedder would give). "a" occurs twice, at −10° and
// +10°: its type vector is at 0°. Sources a 0°, b 30°, c 60°, d 200°; targets p 20°, q 45°,
// r 100°, s 250°. Best translations (the hand computation of vocabulary-translations.test.ts):
// CSLS (K = 3) a → p, b → p, c → r, d → s; the plain cosine a → p, b → p, c → q (the hub), d → s.
import type { PairEmbeddings } from '../../../src/main/models/bilstm/embedder.ts';

const rad = (deg: number) => (deg * Math.PI) / 180;
const plane = (angles: number[]) => Float32Array.from(angles.flatMap((a) => [Math.cos(rad(a)), Math.sin(rad(a))]));

export const src = [
  ['a', 'b'],
  ['c', 'a', 'd'],
];
export const tgt = [
  ['p', 'q'],
  ['r', 's'],
];
export const embeddings: PairEmbeddings = {
  src: [plane([-10, 30]), plane([60, 10, 200])],
  tgt: [plane([20, 45]), plane([100, 250])],
  dim: 2,
};
