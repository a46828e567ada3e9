// How a recorded siamese head (seed 004) reads in the app: its frozen encoder, sentence vector,
// training settings and the test retrieval `mekong siamese` recorded (models.heads), one line
// each for the Models page's list and the Mine and Score dialogs' choice of head.
import type { SiameseHeadInfo } from '../../shared/models-api.ts';

/** The last part of a path, for a short label. */
export const folderName = (dir: string): string =>
  dir
    .replace(/[\\/]+$/, '')
    .split(/[\\/]/)
    .pop() || dir;

/** "bisent2vec:b2v-vie", "hf:mbert · mean of layer 7": the encoder by its folder's name, and its sentence vector. */
export function headEncoder(h: NonNullable<SiameseHeadInfo['head']>): string {
  const colon = h.encoder.indexOf(':');
  const encoder = `${h.encoder.slice(0, colon)}:${folderName(h.encoder.slice(colon + 1))}`;
  return h.pooling === null ? encoder : `${encoder} · ${h.pooling} of layer ${h.layer}`;
}

/** "hard negatives · 30 epochs · lr 0.001". */
export const headTraining = (h: NonNullable<SiameseHeadInfo['head']>): string =>
  `${h.negatives} negatives · ${h.epochs} epochs · lr ${h.lr}`;

/** "P@1 0.403 / 0.407 · P@5 0.723 / 0.695 on 200 test pairs", or null when the head recorded none. */
export function headRetrieval(h: NonNullable<SiameseHeadInfo['head']>): string | null {
  const r = h.retrieval;
  if (!r) return null;
  const f = (v: number) => v.toFixed(3);
  return `P@1 ${f(r.p1.srcTgt)} / ${f(r.p1.tgtSrc)} · P@5 ${f(r.p5.srcTgt)} / ${f(r.p5.tgtSrc)} on ${r.pairs} test pairs`;
}
