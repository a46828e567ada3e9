// The encoder family's Align job over a project's pairs (align/project-align.ts runs it
// through the registry): SimAlign, awesome-align or PMI-Align over the project's pretrained
// encoder folder, in a worker thread (train/encoder.worker.ts: its ONNX sessions would block
// the server's thread), the links extracted from the word similarities of hidden state
// `layer`, each link's probability as its score.
import type { EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { EncoderAlignResult, EncoderTask } from '../train/encoder.worker.ts';
import { type ProjectAligner, projectEncoderDir } from './app-jobs.ts';

export const encoderAlignJob: ProjectAligner = {
  check(store, o) {
    if (o.byCharacter)
      throw new UserError(`${o.method} reads the encoder's own subwords: aligning by character is for the statistical methods`);
    const config = HfEncoder.check(projectEncoderDir(store));
    if (o.layer !== undefined && o.layer > config.layers)
      throw new UserError(`layer ${o.layer} does not exist: the project's encoder has hidden states 0 (embeddings) to ${config.layers}`);
  },
  async align(store, o, { corpus }, ctx) {
    const dir = projectEncoderDir(store);
    const method = o.method as EncoderMethodName;
    const task: EncoderTask = { type: 'align', dir, method, layer: o.layer, device: o.device, src: corpus.src, tgt: corpus.tgt };
    const r = await runInWorker<EncoderTask, EncoderAlignResult>(new URL('../train/encoder.worker.ts', import.meta.url), task, ctx);
    return {
      links: r.links,
      label: `${method} (layer ${r.layer})`,
      model: { name: `${method} layer ${r.layer}`, kind: 'encoder', config: { method, layer: r.layer, encoder: dir, device: r.device } },
      summary: `${method} over ${dir} (hidden state ${r.layer}, on ${r.device ?? 'cpu'})`,
    };
  },
};
