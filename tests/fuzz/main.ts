// `npm run fuzz -- --cases N --seed S`: runs the fuzz suite (fuzz.ts) and prints its table and
// findings; exits 1 when there is a finding.
import { Command } from 'commander';
import { fuzz } from './fuzz.ts';

const o = new Command('fuzz')
  .option('--cases <n>', 'how many cases', '1000')
  .option('--seed <s>', 'the first case number', '1')
  .parse(process.argv)
  .opts<{ cases: string; seed: string }>();
const t0 = Date.now();
const s = await fuzz(Number(o.cases), Number(o.seed), (n) => n % 500 === 0 && process.stderr.write(`${n} cases\n`));
console.log('| format / mutation | ok | refused | findings |\n|---|---|---|---|');
for (const [key, r] of [...s.byMutation].sort()) console.log(`| ${key} | ${r.ok} | ${r.refused} | ${r.finding} |`);
console.log(
  `\n${s.cases} cases in ${((Date.now() - t0) / 1000).toFixed(0)} s: ${s.ok} imported, ${s.refused} refused with one line, ${s.findings.length} findings`,
);
for (const f of s.findings) console.log(`finding: seed ${f.seed} (${f.format}, ${f.mutation}): ${f.detail}`);
process.exit(s.findings.length ? 1 : 0);
