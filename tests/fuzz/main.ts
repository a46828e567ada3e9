// `npm run fuzz -- --cases N --seed S [--jobs J] [--in-process]`: runs the fuzz suite (fuzz.ts),
// each case through the `mekong` CLI (J at a time, default 2) or, with --in-process, through
// the import pipeline in this process; prints its tables by kind of case and by format, the
// largest peak memory, the rate and the findings; exits 1 when there is a finding.
import { Command } from 'commander';
import { fuzz, type Tally } from './fuzz.ts';

const o = new Command('fuzz')
  .option('--cases <n>', 'how many cases', '1000')
  .option('--seed <s>', 'the first case number', '1')
  .option('--jobs <n>', 'CLI mode: cases run at once', '2')
  .option('--in-process', 'run the cases through the import pipeline in this process, not the CLI')
  .parse(process.argv)
  .opts<{ cases: string; seed: string; jobs: string; inProcess?: boolean }>();
const mode = o.inProcess ? 'in-process' : 'cli';
const s = await fuzz(Number(o.cases), Number(o.seed), {
  mode,
  jobs: Number(o.jobs),
  onCase: (n) => n % (mode === 'cli' ? 50 : 500) === 0 && process.stderr.write(`${n} cases\n`),
});
const mb = (kb: number | null) => (kb === null ? '–' : (kb / 1024).toFixed(0));
console.log('| format / mutation | ok | refused | findings | hangs | peak MB |\n|---|---|---|---|---|---|');
for (const [key, r] of [...s.byKind].sort())
  console.log(`| ${key} | ${r.ok} | ${r.refused} | ${r.finding} | ${r.hang} | ${mb(r.peakKb)} |`);
const byFormat = new Map<string, Tally>();
for (const [key, r] of s.byKind) {
  const format = key.split(' / ')[0];
  const f = byFormat.get(format) ?? { ok: 0, refused: 0, finding: 0, hang: 0, peakKb: null };
  for (const k of ['ok', 'refused', 'finding', 'hang'] as const) f[k] += r[k];
  f.peakKb = r.peakKb === null ? f.peakKb : Math.max(f.peakKb ?? 0, r.peakKb);
  byFormat.set(format, f);
}
console.log('\n| format | ok | refused | findings | hangs | peak MB |\n|---|---|---|---|---|---|');
for (const [format, r] of [...byFormat].sort())
  console.log(`| ${format} | ${r.ok} | ${r.refused} | ${r.finding} | ${r.hang} | ${mb(r.peakKb)} |`);
console.log(
  `\n${s.cases} cases (${mode}${mode === 'cli' ? `, ${o.jobs} at a time` : ''}) in ${s.seconds.toFixed(0)} s ` +
    `(${(s.seconds / s.cases).toFixed(2)} s a case, ${((3600 * s.cases) / s.seconds).toFixed(0)} cases an hour): ` +
    `${s.ok} imported, ${s.refused} refused with one line, ${s.findings.length - s.hangs} findings, ${s.hangs} hangs; ` +
    `largest peak memory ${mb(s.peakKb)} MB`,
);
for (const f of s.findings) console.log(`finding: seed ${f.seed} (${f.format}, ${f.mutation}): ${f.detail}`);
process.exit(s.findings.length ? 1 : 0);
