// The encoder family's Align job over a project's pairs (align/project-align.ts runs it
// through the registry): SimAlign, awesome-align or PMI-Align over the project's pretrained
// encoder folder, in a worker thread (train/encoder.worker.ts: its ONNX sessions would block
// the server's thread), the links extracted from the word similarities of hidden state
// `layer` (SimAlign's with its similarity unit, null-align share and distortion, recorded on
// the model row), each link's probability as its score.
import { ENCODER_DEFAULTS } from '../../shared/aligner-defaults.ts';
import type { EncoderMethodName } from '../../shared/methods.ts';
import { UserError } from '../errors.ts';
import { toArrays } from '../align/sentences.ts';
import { runInWorker } from '../jobs/worker-host.ts';
import { HfEncoder } from '../models/transformer/hf-encoder.ts';
import type { EncoderAlignResult, EncoderTask } from '../train/encoder.worker.ts';
import { type ProjectAligner, projectEncoderDir } from './app-jobs.ts';

/** The Align options only the SimAlign methods read. */
const SIMALIGN_SETTINGS = ['tokenType', 'nullAlign', 'distortion'] as const;

const isSimAlignMethod = (method: string): boolean => method.startsWith('simalign-');

export const encoderAlignJob: ProjectAligner = {
  check(store, o) {
    if (o.byCharacter)
      throw new UserError(`${o.method} reads the encoder's own subwords: aligning by character is for the statistical methods`);
    const config = HfEncoder.check(projectEncoderDir(store));
    if (o.layer !== undefined && o.layer > config.layers)
      throw new UserError(`layer ${o.layer} does not exist: the project's encoder has hidden states 0 (embeddings) to ${config.layers}`);
    const given = SIMALIGN_SETTINGS.find((k) => o[k] !== undefined);
    if (given && !isSimAlignMethod(o.method))
      throw new UserError(
        `${given} is read by the SimAlign methods only (simalign-argmax, simalign-itermax, simalign-match), not ${o.method}`,
      );
  },
  async align(store, o, { corpus }, ctx) {
    const dir = projectEncoderDir(store);
    const method = o.method as EncoderMethodName;
    // SimAlign's settings as the run uses them (defaults filled in), so the model row records them
    const simAlign = isSimAlignMethod(method)
      ? {
          tokenType: o.tokenType ?? ENCODER_DEFAULTS.tokenType,
          nullAlign: o.nullAlign ?? ENCODER_DEFAULTS.nullAlign,
          distortion: o.distortion ?? ENCODER_DEFAULTS.distortion,
        }
      : undefined;
    const task: EncoderTask = {
      type: 'align',
      dir,
      method,
      layer: o.layer,
      simAlign,
      device: o.device,
      src: toArrays(corpus.src),
      tgt: toArrays(corpus.tgt),
    };
    const r = await runInWorker<EncoderTask, EncoderAlignResult>(new URL('../train/encoder.worker.ts', import.meta.url), task, ctx);
    return {
      links: r.links,
      label: `${method} (layer ${r.layer})`,
      model: {
        name: `${method} layer ${r.layer}`,
        kind: 'encoder',
        config: { method, layer: r.layer, ...simAlign, encoder: dir, device: r.device },
      },
      summary: `${method} over ${dir} (hidden state ${r.layer}, on ${r.device ?? 'cpu'})`,
    };
  },
};
