// `npm run bench -- finetune [--vocab 119547] [--pairs 12] [--batch 4] [--awp-masks 1]
//                            [--objectives tr,awp,wtr] [--freeze-embeddings]`
// Seconds per fine-tuning step (models/transformer/encoder-finetune.ts: the seeds' objectives, AdamW
// on every weight) on a BERT-base shape (12 layers × 768, 12 heads, feed-forward 3072; the
// vocabulary's rows as mBERT's by default; random weights and the tests' tokenizer, at most
// 64 positions) on the CPU, with gold links on the first pairs of the bundled sample, so users
// know what a step costs without a GPU. The first step includes reading and compiling.
import { benchOptions, listOption, numberOption } from './bench-options.ts';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finetuneEncoder } from '../../src/main/models/transformer/encoder-finetune.ts';
import type { Objective } from '../../src/main/models/transformer/finetune-objectives.ts';
import { samplePairs, writeTinyBert } from '../unit/models/transformer/tiny-encoders.ts';

export default async function finetuneBench(args: string[]): Promise<void> {
  const o = benchOptions('finetune', args, {
    vocab: { type: 'string', default: '119547' },
    pairs: { type: 'string', default: '12' },
    batch: { type: 'string', default: '4' },
    'awp-masks': { type: 'string', default: '1' },
    objectives: { type: 'string', default: 'tr,awp,wtr' },
    'freeze-embeddings': { type: 'boolean', default: false },
  });
  if (!o) return;
  const vocab = numberOption('vocab', o.vocab)!;
  const pairs = numberOption('pairs', o.pairs)!;
  const batch = numberOption('batch', o.batch)!;
  const awpMasks = numberOption('awp-masks', o['awp-masks'])!;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-finetune-bench-'));
  try {
    writeTinyBert(join(dir, 'base'), { layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabRows: vocab });
    const { src, tgt } = samplePairs(pairs);
    const gold = src.map((s, k) =>
      Array.from({ length: Math.min(s.length, tgt[k].length, 8) }, (_, i) => ({ s: i, t: i, kind: 'sure' as const, score: null })),
    );
    const seconds: number[] = [];
    let last = performance.now();
    const r = await finetuneEncoder(
      {
        encoder: join(dir, 'base'),
        src,
        tgt,
        gold,
        out: join(dir, 'out'),
        objectives: listOption(o.objectives) as Objective[],
        batch,
        awpMasks,
        epochs: 1,
        device: 'cpu',
        freezeEmbeddings: o['freeze-embeddings'],
      },
      {
        progress: ({ message }) => {
          if (!message?.startsWith('fine-tuning')) return;
          const now = performance.now();
          seconds.push((now - last) / 1000);
          last = now;
        },
        signal: new AbortController().signal,
      },
    );
    console.log(
      `BERT-base shape, ${vocab} vocabulary rows: ${r.steps} steps, seconds per step ${seconds.map((s) => s.toFixed(1)).join(', ')} (the first includes reading and compiling); loss ${r.epochs[0].loss.toFixed(3)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
