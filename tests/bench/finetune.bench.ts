// `npm run bench -- finetune [--vocab 119547] [--pairs 12] [--batch 4] [--awp-masks 1]
//                            [--objectives tr,awp,wtr] [--freeze-embeddings]`
// Seconds per fine-tuning step (models/transformer/finetune.ts: the seeds' objectives, AdamW
// on every weight) on a BERT-base shape (12 layers × 768, 12 heads, feed-forward 3072; the
// vocabulary's rows as mBERT's by default; random weights and the tests' tokenizer, at most
// 64 positions) on the CPU, with gold links on the first pairs of the bundled sample, so users
// know what a step costs without a GPU. The first step includes reading and compiling.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { finetuneEncoder } from '../../src/main/models/transformer/finetune.ts';
import type { Objective } from '../../src/main/models/transformer/finetune-objectives.ts';
import { samplePairs, writeTinyBert } from '../unit/transformer/tiny-encoders.ts';

function arg(args: string[], name: string, dflt: string): string {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : dflt;
}

export default async function finetuneBench(args: string[]): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-finetune-bench-'));
  try {
    const vocab = Number(arg(args, 'vocab', '119547'));
    writeTinyBert(join(dir, 'base'), { layers: 12, hidden: 768, heads: 12, intermediate: 3072, vocabRows: vocab });
    const { src, tgt } = samplePairs(Number(arg(args, 'pairs', '12')));
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
        objectives: arg(args, 'objectives', 'tr,awp,wtr').split(',') as Objective[],
        batch: Number(arg(args, 'batch', '4')),
        awpMasks: Number(arg(args, 'awp-masks', '1')),
        epochs: 1,
        device: 'cpu',
        freezeEmbeddings: args.includes('--freeze-embeddings'),
      },
      (_done, _total, message) => {
        if (!message?.startsWith('fine-tuning')) return;
        const now = performance.now();
        seconds.push((now - last) / 1000);
        last = now;
      },
    );
    console.log(
      `BERT-base shape, ${vocab} vocabulary rows: ${r.steps} steps, seconds per step ${seconds.map((s) => s.toFixed(1)).join(', ')} (the first includes reading and compiling); loss ${r.epochs[0].loss.toFixed(3)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
