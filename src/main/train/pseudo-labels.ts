// Self-training's pseudo-labels on the Models page (neural.worker.ts): the trained model
// aligns the training pairs — its embeddings, then the extraction's EM (which counts the
// pairs' known links) and gdfa — and its links scoring at least the threshold become the
// word-level supervision of the pairs that have none, as seed 000's pseudo-labels are taken
// from another aligner (method.ts does the same for the CLI). Evaluation pairs are skipped:
// their curve must stay a measure of pairs the model never learned links of.
import type { Link } from '../../shared/domain.ts';
import { extractLinks } from '../models/bilstm/aligner.ts';
import type { Embedder } from '../models/bilstm/embedder.ts';
import { supervision } from '../models/bilstm/method.ts';
import type { NeuralModel, TrainData } from '../models/bilstm/train.ts';

/** The training data with the model's own links (gdfa over the EM, which counts the known
 *  links) at or above the threshold as supervision of the pairs without any, except `skip`. */
export async function pseudoLabelled(
  embedder: Embedder, model: NeuralModel, data: TrainData, o: { threshold: number; skip: readonly number[] },
  onProgress: (done: number, total: number, phase: string) => void,
): Promise<TrainData> {
  const skip = new Set(o.skip);
  const todo = data.src.flatMap((s, k) => (s.length && data.tgt[k].length && !skip.has(k) ? [k] : []));
  const [src, tgt] = [todo.map((k) => data.src[k]), todo.map((k) => data.tgt[k])];
  const e = await embedder.embed(model, src, tgt, (done) => onProgress(done, todo.length, 'self-training: embedding the pairs'));
  const found = extractLinks(src, tgt, e, { gold: todo.map((k) => data.gold?.[k]), onProgress: (d, n, what) => onProgress(d, n, `self-training: ${what}`) });
  const links: Link[][] = data.src.map(() => []);
  todo.forEach((k, n) => (links[k] = found[n]));
  return { ...data, gold: supervision({ ...data, modelLinks: links, threshold: o.threshold }) };
}
