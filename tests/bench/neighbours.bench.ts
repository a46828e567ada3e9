// `npm run bench -- neighbours [--vocab 20000] [--dim 300] [--k 10] [--top 5] [--extraction csls]`:
// word translation over two whole vocabularies (eval/csls.ts vocabularyTranslations, what
// `mekong lexicon --extraction csls|nn` and Bi-Sent2Vec's lexicon run) on random unit vectors
// of V words a side: the wall time of the blocked search and its product rate.
import { benchOptions, numberOption } from './bench-options.ts';
import { unitRows, vocabularyTranslations } from '../../src/main/eval/csls.ts';
import { Rng } from '../../src/main/nn/init.ts';

export default async function bench(args: string[]): Promise<void> {
  const o = benchOptions('neighbours', args, {
    vocab: { type: 'string', default: '20000' },
    dim: { type: 'string', default: '300' },
    k: { type: 'string', default: '10' },
    top: { type: 'string', default: '5' },
    extraction: { type: 'string', default: 'csls' },
  });
  if (!o) return;
  const V = numberOption('vocab', o.vocab)!,
    d = numberOption('dim', o.dim)!,
    K = numberOption('k', o.k)!,
    top = numberOption('top', o.top)!;
  if (o.extraction !== 'csls' && o.extraction !== 'nn') throw new Error(`--extraction csls or nn, got ${o.extraction}`);
  const rng = new Rng(1);
  const rows = () =>
    unitRows(
      Float32Array.from({ length: V * d }, () => rng.normal()),
      d,
    );
  const x = rows(),
    y = rows();
  const how = o.extraction === 'csls' ? { kind: 'csls' as const, K } : { kind: 'nn' as const };
  const started = performance.now();
  const found = await vocabularyTranslations(x, y, d, how, top);
  const seconds = (performance.now() - started) / 1000;
  // CSLS reads the products twice (neighbourhoods, then the scores), NN once
  const passes = how.kind === 'csls' ? 2 : 1;
  const gflops = (passes * 2 * V * V * d) / seconds / 1e9;
  console.log(
    `${o.extraction} over ${V} × ${V} words, dim ${d}${how.kind === 'csls' ? `, K ${K}` : ''}, top ${top}: ${seconds.toFixed(1)} s ` +
      `(${gflops.toFixed(1)} GFLOP/s of products; ${found.length} rows, first ${found[0]?.map((t) => t.index).join(' ')})`,
  );
}
