// The app's Align job for the encoder methods (SimAlign, awesome-align, PMI-Align over the
// project's pretrained encoder folder, models/transformer/): encodes every visible pair,
// extracts its links from the word similarities of hidden state `layer`, and stores them as
// a new model alignment with each link's probability as its score (align/project-align.ts
// storeModelAlignment). Nothing is trained, so gold links and rejections are not used: the
// editor shows the result next to them as suggestions, as for any model.
import type { DeviceSetting } from '../../shared/device-settings.ts';
import type { Link } from '../../shared/domain.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { storeModelAlignment } from '../align/project-align.ts';
import { CancelledError, UserError } from '../errors.ts';
import type { Progress } from '../jobs/job-registry.ts';
import { defaultAlignLayer } from '../models/transformer/hf-config.ts';
import { alignWithEncoder } from '../models/transformer/encoder-aligner.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import { encoderDir } from '../store/encoder-folder.ts';
import { loadCorpus } from '../store/pair-corpus.ts';
import type { ProjectStore } from '../store/project-store.ts';

export interface EncoderAlignJobOptions {
  method: EncoderMethodName;
  layer?: number;
  device?: DeviceSetting;
}

/** The project's encoder folder; a user error when it names none. */
export function projectEncoderDir(store: ProjectStore): string {
  const dir = encoderDir(store.db);
  if (!dir) throw new UserError('this project names no encoder folder: set one in the Align dialog first');
  return dir;
}

/** Runs the job; returns a one-line summary. */
export async function alignProjectWithEncoder(
  store: ProjectStore,
  o: EncoderAlignJobOptions,
  run: { progress?: Progress; signal?: AbortSignal } = {},
): Promise<string> {
  const dir = projectEncoderDir(store);
  const { ids, src, tgt } = loadCorpus(store.db, false);
  const encoder = HfEncoder.open(dir, { device: o.device });
  const layer = o.layer ?? defaultAlignLayer(encoder.config);
  let links: Link[][];
  try {
    links = await alignWithEncoder(encoder, o.method, src, tgt, {
      layer,
      onProgress: (done, total) => {
        if (run.signal?.aborted) throw new CancelledError();
        run.progress?.(done, total, `aligning (${o.method}, hidden state ${layer})`);
      },
    });
  } finally {
    await encoder.release();
  }
  const count = storeModelAlignment(
    store,
    { name: `${o.method} layer ${layer}`, kind: 'encoder', config: { method: o.method, layer, encoder: dir, device: encoder.device } },
    `${o.method} (layer ${layer})`,
    ids,
    links,
  );
  return `aligned ${ids.length} pairs with ${o.method} over ${dir} (hidden state ${layer}, on ${encoder.device ?? 'cpu'}): ${count} links`;
}
