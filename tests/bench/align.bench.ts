// `npm run bench -- align [--methods m1,m2] [--speed-method m] [--runs N] [--pairs N1,N2,…] [--skip-aer] [--skip-speed] [--fast-align DIR] [--fast-align-threads both|omp|1]`
// AER of each statistical aligner on every ../shared/data/std-gold-align set (each set
// aligned on its own sentences, lowercased; en-fr also with bench-corpora/m30k added),
// and pairs/s on dup100k (uniq39k cycled to 100,000 lines, both sides alike, lowercased:
// bench-corpora/SOURCE.md), or on each size of --pairs (uniq39k cycled to N lines the same
// way; default 100000), with the time per pair and the peak RSS of each size against the
// first's (issue 41: time linear in the pairs, peak ≤ 1.15× the first size's),
// against fast_align built with OpenMP (both directions side by side,
// then atools: 20.8 s on this machine kind the day issue 20 was filed). Each run of ours is
// `mekong align` in its own process under /usr/bin/time (wall, peak RSS, CPU), as a user
// runs it; then one alignment inside the bench process gives the time and memory of each
// phase (read, words to ids, EM per model — the last iteration also decodes and symmetrises,
// shown as the threads' summed seconds — the last M-step, links).
// The machine's speed moves from day to day (fast_align took 27.9–35.3 s here on 2026-11-27),
// so --fast-align DIR (a build of github.com/clab/fast_align holding fast_align and atools:
// `cmake .. && make`, OpenMP found by cmake) runs it on the same lines before each run of
// ours, `-d -o -v` in both directions side by side then `atools -c grow-diag-final-and`, once
// with OpenMP's default threads and once with one thread per direction, and the faster of
// the two is the baseline of that run's ratio. --fast-align-threads 1 (or omp) runs only that
// setting: at 4M pairs one run of fast_align took 1,094.5 s here (2026-11-28), and one thread
// a direction was the faster setting in every round measured (docs/experiments.md).
import { benchOptions, listOption, numberOption } from './bench-options.ts';
import { spawn } from 'node:child_process';
import { freshBuild } from '../../bin/fresh-build.js';
import { userEnv } from '../../bin/malloc-tuning.js';
import { closeSync, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { alignCorpus } from '../../src/main/align/engine.ts';
import { methodPlan } from '../../src/main/align/train-plans.ts';
import { DEFAULT_METHOD } from '../../src/shared/methods.ts';
import { STATISTICAL_PLANS } from '../../src/main/align/train-plans.ts';
import { alignedPair } from '../../src/shared/link-set.ts';
import { scoreAer } from '../../src/main/eval/aer.ts';
import { parsePharaohText } from '../../src/main/corpus/pharaoh.ts';
import type { Sentences } from '../../src/main/align/sentences.ts';
import { lineSentences } from '../../src/main/align/text-io.ts';
import { CORPORA, cycledLines, DATA, lines } from './bench-corpora.ts';

export const GOLD = join(DATA, 'std-gold-align');
const OUT = join(tmpdir(), 'mekong-bench-dup100k.pharaoh');

export interface GoldSet {
  name: string;
  text: string;
  gold: string;
  base: 0 | 1;
  extra?: [string, string];
  ref: { fast_align: number; eflomal: number; mgiza: number };
}

export const SETS: GoldSet[] = [
  { name: 'de-en 508', text: 'test.de-en', gold: 'deen.talp', base: 1, ref: { fast_align: 0.493, eflomal: 0.377, mgiza: 0.451 } },
  { name: 'en-fr 447', text: 'test.en-fr', gold: 'enfr.talp', base: 1, ref: { fast_align: 0.298, eflomal: 0.179, mgiza: 0.263 } },
  {
    name: 'en-fr 447 + m30k',
    text: 'test.en-fr',
    gold: 'enfr.talp',
    base: 1,
    extra: ['m30k.en', 'm30k.fr'],
    ref: { fast_align: 0.254, eflomal: 0.146, mgiza: 0.224 },
  },
  { name: 'ro-en 248', text: 'test.ro-en', gold: 'roen.talp', base: 1, ref: { fast_align: 0.487, eflomal: 0.374, mgiza: 0.422 } },
  { name: 'zh-en 450', text: 'test.ch-en', gold: 'chen.talp', base: 1, ref: { fast_align: 0.509, eflomal: 0.329, mgiza: 0.431 } },
  { name: 'ja-en 582', text: 'test.ja-en', gold: 'jaen.talp', base: 0, ref: { fast_align: 0.712, eflomal: 0.604, mgiza: 0.633 } },
];

const tokens = (line: string) =>
  line
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0);

export function loadSet(s: GoldSet): { src: string[][]; tgt: string[][]; n: number } {
  const pairs = lines(join(GOLD, s.text)).map((l) => l.split('|||'));
  const src = pairs.map((p) => tokens(p[0]));
  const tgt = pairs.map((p) => tokens(p[1] ?? ''));
  const n = src.length;
  if (s.extra) {
    src.push(...lines(join(CORPORA, s.extra[0])).map(tokens));
    tgt.push(...lines(join(CORPORA, s.extra[1])).map(tokens));
  }
  return { src, tgt, n };
}

async function aerTable(methods: string[]): Promise<void> {
  const columns = methods.flatMap((m) => [`${m} gdfa`, `${m} post`]);
  console.log(`\nAER (lower is better), lowercased, each set aligned on its own sentences\n`);
  console.log(['set'.padEnd(18), ...[...columns, 'fast_align', 'eflomal', 'mgiza'].map((c) => c.padEnd(12))].join(''));
  for (const s of SETS) {
    const { src, tgt, n } = loadSet(s);
    const gold = parsePharaohText(readFileSync(join(GOLD, s.gold), 'utf8'), s.base, s.gold).map(alignedPair);
    const row = [s.name];
    for (const method of methods) {
      for (const sym of ['gdfa', 'post']) {
        const { links } = await alignCorpus(src, tgt, { method, sym });
        const pred = links.slice(0, n).map((ls) => ls.map((l) => [l.s, l.t] as [number, number]));
        row.push(scoreAer(gold, pred).aer.toFixed(3));
      }
    }
    row.push(...[s.ref.fast_align, s.ref.eflomal, s.ref.mgiza].map((x) => x.toFixed(3)));
    console.log([row[0].padEnd(18), ...row.slice(1).map((c) => c.padEnd(12))].join(''));
  }
}

/** dup100k's side as the CLI reads it: lines kept, each tokenised when the aligner asks. */
function dup100k(side: string): Sentences {
  return lineSentences(cycledLines(side, 100_000));
}

const FAST_ALIGN_OMP_S = 20.8;
const RATIO = 1.5;
const TARGET_S = FAST_ALIGN_OMP_S / RATIO;
/** issue 20 item 1: the peak RSS of `mekong align` on dup100k */
const PEAK_MB = 400;

interface Timed {
  seconds: number;
  /** peak RSS in MB, as /usr/bin/time reports it (the largest process of the command's tree) */
  peakMb: number;
  /** user + system CPU seconds of the command's processes */
  cpuSeconds: number;
}

/** Runs `cmd args` under /usr/bin/time with stdout to `out`; its wall seconds and peak RSS. */
function timed(cmd: string, args: string[], out: string, env: NodeJS.ProcessEnv): Promise<Timed> {
  const fd = openSync(out, 'w');
  const t0 = performance.now();
  const child = spawn('/usr/bin/time', ['-f', 'peak-kb %M cpu %U %S', cmd, ...args], { stdio: ['ignore', fd, 'pipe'], env });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      closeSync(fd);
      const m = /peak-kb (\d+) cpu ([\d.]+) ([\d.]+)/.exec(err);
      if (code !== 0 || !m) reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}: ${err.slice(-500)}`));
      else resolve({ seconds: (performance.now() - t0) / 1000, peakMb: Number(m[1]) / 1024, cpuSeconds: Number(m[2]) + Number(m[3]) });
    });
  });
}

/** fast_align's dup100k run as issue 20 measured it: both directions side by side, then atools; the peak is both directions' together. */
async function fastAlign(dir: string, input: string, threads: number | undefined): Promise<Timed> {
  const env = threads ? { ...userEnv(), OMP_NUM_THREADS: String(threads) } : userEnv();
  const [fwd, rev] = [join(tmpdir(), 'mekong-bench-fa.fwd'), join(tmpdir(), 'mekong-bench-fa.rev')];
  const t0 = performance.now();
  const dirs = await Promise.all([
    timed(join(dir, 'fast_align'), ['-i', input, '-d', '-o', '-v'], fwd, env),
    timed(join(dir, 'fast_align'), ['-i', input, '-d', '-o', '-v', '-r'], rev, env),
  ]);
  const sym = await timed(
    join(dir, 'atools'),
    ['-i', fwd, '-j', rev, '-c', 'grow-diag-final-and'],
    join(tmpdir(), 'mekong-bench-fa.gdfa'),
    env,
  );
  return {
    seconds: (performance.now() - t0) / 1000,
    peakMb: Math.max(dirs[0].peakMb + dirs[1].peakMb, sym.peakMb),
    cpuSeconds: dirs[0].cpuSeconds + dirs[1].cpuSeconds + sym.cpuSeconds,
  };
}

type FastAlignThreads = 'both' | 'omp' | '1';

/** The newlines in `bytes` (a file of 4M lines is more than V8 can hold as one string). */
function lineCount(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf(10); i !== -1; i = bytes.indexOf(10, i + 1)) n++;
  return n;
}

/** `lines` to `file`, a line each, 10,000 at a time: 4M lines as one string pass V8's limit on a string's length. */
function writeLines(file: string, lines: readonly string[]): void {
  const fd = openSync(file, 'w');
  try {
    for (let i = 0; i < lines.length; i += 10_000) writeSync(fd, lines.slice(i, i + 10_000).join('\n') + '\n');
  } finally {
    closeSync(fd);
  }
}

/** The faster of fast_align's thread settings asked for (both by default), each printed. */
async function fastAlignBest(dir: string, input: string, threads: FastAlignThreads): Promise<Timed> {
  const show = (t: Timed) => `${t.seconds.toFixed(1)} s, ${t.peakMb.toFixed(0)} MB`;
  const omp = threads === '1' ? undefined : await fastAlign(dir, input, undefined);
  const one = threads === 'omp' ? undefined : await fastAlign(dir, input, 1);
  const shown = [omp && `OpenMP default threads ${show(omp)}`, one && `one thread a direction ${show(one)}`];
  console.log(`     fast_align: ${shown.filter(Boolean).join('; ')}`);
  return [omp, one].filter((t): t is Timed => t !== undefined).reduce((a, b) => (b.seconds < a.seconds ? b : a));
}

/** Wall time and memory at the end of each phase of one run: RSS then, and the process's peak RSS so far. */
class PhaseClock {
  private last = performance.now();
  readonly rows: [string, number, number, number][] = [];

  /** A row inside the phase that ends next, measured by the threads themselves (no memory figures). */
  within(what: string, threadSeconds: number): void {
    this.rows.push([`  ${what}`, threadSeconds, NaN, NaN]);
  }

  end(phase: string): void {
    const now = performance.now();
    this.rows.push([phase, (now - this.last) / 1000, process.memoryUsage.rss() / 2 ** 20, process.resourceUsage().maxRSS / 1024]);
    this.last = now;
  }

  print(): void {
    console.log('  phase                         seconds  RSS at end  peak RSS so far');
    for (const [phase, s, rss, peak] of this.rows) {
      const mb = (x: number) => (Number.isNaN(x) ? '' : `${x.toFixed(0)} MB`);
      console.log(`  ${phase.padEnd(28)}${s.toFixed(2).padStart(8)}${mb(rss).padStart(12)}${mb(peak).padStart(17)}`);
    }
  }
}

/** The phases of one alignment of dup100k inside this process (the peak includes the bench's own memory). */
async function phases(method: string): Promise<void> {
  const stages = methodPlan(method).stages;
  const stageEnds = stages.map((_, i) => stages.slice(0, i + 1).reduce((n, st) => n + st.iterations, 0));
  const clock = new PhaseClock();
  const src = dup100k('en'),
    tgt = dup100k('de');
  clock.end('read lines');
  let stage = 0;
  const { links } = await alignCorpus(
    src,
    tgt,
    { method, sym: 'gdfa', workers: true },
    {
      ctx: {
        progress: ({ done }) => {
          if (stage < stages.length && done === stageEnds[stage]) clock.end(`EM ${stages[stage++].model}`);
        },
        signal: new AbortController().signal,
      },
      onDecoded: (threadSeconds) => clock.within('decode, symmetrise (thread-s)', threadSeconds),
      onPhase: (ended) =>
        clock.end(ended === 'bitext' ? 'words to ids, cells' : ended === 'trained' ? 'last M-step, threads end' : 'links'),
    },
  );
  if (links.length !== src.length) throw new Error('wrong number of alignments');
  console.log('  phases of one run in the bench process (its peak includes the bench itself):');
  clock.print();
}

/** Issue 41: the peak RSS at every size at most this many times the first size's. */
const PEAK_GROWTH = 1.15;
/** Issue 41: this many times fast_align's speed at every size. */
const SIZE_RATIO = 2;

async function speed(
  method: string,
  runs: number,
  fastAlignDir: string | undefined,
  fastAlignThreads: FastAlignThreads,
  sizes: number[],
): Promise<void> {
  const cli = join(import.meta.dirname, '../../bin/mekong.js');
  console.log(
    freshBuild()
      ? "mekong runs from the app's build (out/main/cli.js)"
      : 'mekong runs from the sources through tsx (no build, or one older than a source file: about 2 s of CPU more a run; `npm run build` first for what the app runs)',
  );
  let first: { perPair: number; peakMb: number } | undefined;
  for (const pairs of sizes) {
    const name = pairs === 100_000 ? 'dup100k' : `cycled${pairs}`;
    console.log(
      `\n${name} en-de (${pairs.toLocaleString('en')} pairs: uniq39k cycled, lowercased, read from files), method ${method}, gdfa`,
    );
    const [en, de] = [cycledLines('en', pairs), cycledLines('de', pairs)];
    const [enFile, deFile] = [join(tmpdir(), `mekong-bench-${name}.en`), join(tmpdir(), `mekong-bench-${name}.de`)];
    writeLines(enFile, en);
    writeLines(deFile, de);
    let faInput: string | undefined;
    if (fastAlignDir) {
      faInput = join(tmpdir(), `mekong-bench-${name}.fa`);
      writeLines(
        faInput,
        en.map((l, k) => `${l} ||| ${de[k]}`),
      );
      console.log(`same-run baseline: fast_align in ${fastAlignDir}, run before each run of ours (target ${SIZE_RATIO}x it)`);
    }
    console.log(
      `each run of ours: \`mekong align --src ${name}.en --tgt ${name}.de --out O --method ${method}\` in its own process under /usr/bin/time`,
    );
    if (pairs === 100_000) {
      console.log(
        `run  seconds  pairs/s  vs fast_align OpenMP (${FAST_ALIGN_OMP_S} s)  target (${TARGET_S.toFixed(1)} s)  peak RSS (≤ ${PEAK_MB} MB)  CPU s  load avg`,
      );
    } else console.log('run  seconds  pairs/s  peak RSS  CPU s  load avg');
    const { length } = en;
    en.length = de.length = 0;
    for (let r = 1; r <= runs; r++) {
      const baseline = fastAlignDir && faInput ? await fastAlignBest(fastAlignDir, faInput, fastAlignThreads) : undefined;
      const load = loadavg()[0].toFixed(1);
      const ours = await timed(
        process.execPath,
        [cli, 'align', '--src', enFile, '--tgt', deFile, '--out', OUT, '--method', method],
        '/dev/null',
        // as from a user's shell: `mekong` chooses its own malloc settings (cli/malloc-plan.ts)
        userEnv(),
      );
      const written = lineCount(readFileSync(OUT));
      if (written !== length) throw new Error(`mekong align wrote ${written} lines for ${length} pairs`);
      const s = ours.seconds;
      const dup100kCols =
        pairs === 100_000
          ? [
              `${(FAST_ALIGN_OMP_S / s).toFixed(2).padStart(27)}x`,
              (s <= TARGET_S ? 'met' : 'missed').padStart(15),
              `${ours.peakMb.toFixed(0)} MB ${ours.peakMb <= PEAK_MB ? 'met' : 'missed'}`.padStart(20),
            ]
          : [`${ours.peakMb.toFixed(0)} MB`.padStart(8)];
      const cols = [
        `${r}   `,
        s.toFixed(1).padStart(7),
        Math.round(length / s)
          .toString()
          .padStart(7),
        ...dup100kCols,
        ours.cpuSeconds.toFixed(1).padStart(5),
        load.padStart(8),
      ];
      console.log(cols.join('  '));
      if (baseline) {
        const ratio = baseline.seconds / s;
        console.log(
          `     same run: fast_align ${baseline.seconds.toFixed(1)} s, ${baseline.peakMb.toFixed(0)} MB; ours ${ratio.toFixed(2)}x its speed (target ${SIZE_RATIO}x: ${ratio >= SIZE_RATIO ? 'met' : 'missed'}), ${(ours.peakMb / baseline.peakMb).toFixed(2)}x its memory`,
        );
      }
      first ??= { perPair: s / length, peakMb: ours.peakMb };
      if (sizes.length > 1) {
        const growth = ours.peakMb / first.peakMb;
        console.log(
          `     against the first size: ${(s / length / first.perPair).toFixed(2)}x its time per pair, ${growth.toFixed(2)}x its peak RSS (target ≤ ${PEAK_GROWTH}x: ${growth <= PEAK_GROWTH ? 'met' : 'missed'})`,
        );
      }
    }
  }
  if (sizes.includes(100_000)) await phases(method);
}

export default async function bench(args: string[]): Promise<void> {
  if (!existsSync(GOLD)) {
    console.log(`align bench: ${DATA} not found, nothing to measure`);
    return;
  }
  const o = benchOptions('align', args, {
    methods: { type: 'string', default: Object.keys(STATISTICAL_PLANS).join(',') },
    'speed-method': { type: 'string', default: DEFAULT_METHOD },
    runs: { type: 'string', default: '2' },
    pairs: { type: 'string', default: '100000' },
    'skip-aer': { type: 'boolean', default: false },
    'skip-speed': { type: 'boolean', default: false },
    'fast-align': { type: 'string' },
    'fast-align-threads': { type: 'string', default: 'both' },
  });
  if (!o) return;
  const methods = listOption(o.methods);
  const sizes = listOption(o.pairs).map((n) => numberOption('pairs', n)!);
  const threads = o['fast-align-threads'];
  if (threads !== 'both' && threads !== 'omp' && threads !== '1') {
    throw new Error(`align bench: --fast-align-threads must be both, omp or 1, not ${threads}`);
  }
  if (!o['skip-speed']) await speed(o['speed-method'], numberOption('runs', o.runs)!, o['fast-align'], threads, sizes);
  if (!o['skip-aer']) await aerTable(methods);
}
