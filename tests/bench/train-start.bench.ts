// `npm run bench -- train-start [--pairs 5000] [--rounds 2]`: how long a linguist waits after
// pressing Train for the first training step, and after pressing Cancel for the run to stop
// (issue 20 item 4), through the app's own path: a project file, `models.train` dispatched as
// the Models page sends it (bilstm-ctl, every option at its default), the job's worker thread
// reading the pairs and building the vocabulary and the first bucket's session, the job's
// progress events; then `jobs.cancel` after the first step. Corpora: the bundled sample
// (265 Lao–Thai pairs, segmented on import) and the first --pairs pairs of uniq39k en–de
// (../shared/data/bench-corpora, pre-tokenized, lowercased).
import { benchOptions, numberOption } from './bench-options.ts';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JobEvent } from '../../src/shared/api.ts';
import type { ModelsResults } from '../../src/shared/models-api.ts';
import { createContext } from '../../src/main/api/create-context.ts';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { runImport } from '../../src/main/corpus/import-pipeline.ts';
import { buildSampleProject } from '../../src/main/corpus/sample.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';

const CORPORA = join(import.meta.dirname, '../../../shared/data/bench-corpora');

/** The first `pairs` pairs of uniq39k with words on both sides (a few of its lines are empty). */
async function uniqProject(dir: string, pairs: number): Promise<ProjectStore> {
  const lines = (x: string) =>
    readFileSync(join(CORPORA, `uniq39k.${x}`), 'utf8')
      .toLowerCase()
      .split('\n');
  const [en, de] = [lines('en'), lines('de')];
  const keep = en
    .map((_, k) => k)
    .filter((k) => en[k].trim() && de[k]?.trim())
    .slice(0, pairs);
  const files = { en: join(dir, 'uniq.en'), de: join(dir, 'uniq.de') };
  writeFileSync(files.en, keep.map((k) => en[k]).join('\n') + '\n');
  writeFileSync(files.de, keep.map((k) => de[k]).join('\n') + '\n');
  const store = ProjectStore.create(join(dir, `uniq${pairs}.mekong`), { name: 'uniq', srcLang: 'en', tgtLang: 'de' });
  await runImport(store, { file: files.en, tgtFile: files.de, format: 'moses', tokenization: 'pretokenized' });
  return store;
}

/** Presses Train, waits for the first step, presses Cancel, waits for the job to end: both waits in seconds. */
async function trainThenCancel(dir: string, store: ProjectStore): Promise<{ firstStep: number; cancel: number; before: string }> {
  const ctx = { ...createContext('browser', 'bench', dir), store };
  let jobId = '';
  let firstStep = 0;
  let before = '';
  let cancelledAt = 0;
  const t0 = performance.now();
  const ended = new Promise<number>((resolve, reject) => {
    ctx.jobs.onEvent((e: JobEvent) => {
      if (e.jobId !== jobId) return;
      if (e.type === 'job.progress' && !firstStep) {
        // the StepMeter's message of a step carries the loss; earlier ones say what is being prepared
        if (!e.message.includes('loss')) before = e.message;
        else {
          firstStep = (performance.now() - t0) / 1000;
          cancelledAt = performance.now();
          void dispatch(ctx, 'jobs.cancel', { jobId });
        }
      } else if (e.type === 'job.cancelled') resolve((performance.now() - cancelledAt) / 1000);
      else if (e.type === 'job.failed' || e.type === 'job.done')
        reject(new Error(`train job ended before it was cancelled: ${JSON.stringify(e)}`));
    });
  });
  const r = await dispatch(ctx, 'models.train', { method: 'bilstm-ctl' });
  if (!r.ok) throw new Error(r.error.error);
  jobId = (r.value as ModelsResults['models.train']).jobId;
  const cancel = await ended;
  return { firstStep, cancel, before };
}

export default async function bench(args: string[]): Promise<void> {
  const o = benchOptions('train-start', args, {
    pairs: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '2' },
  });
  if (!o) return;
  const pairs = numberOption('pairs', o.pairs)!;
  const rounds = numberOption('rounds', o.rounds)!;
  const dir = mkdtempSync(join(tmpdir(), 'mekong-train-start-'));
  const projects: [string, () => Promise<ProjectStore>][] = [
    ['bundled sample, 265 lo–th pairs', () => buildSampleProject(join(dir, 'sample.mekong'))],
  ];
  if (existsSync(CORPORA)) projects.push([`uniq39k, ${pairs.toLocaleString('en')} en–de pairs`, () => uniqProject(dir, pairs)]);
  console.log('| project | round | Train → first step (s) | target | Cancel → stopped (s) | last message before the step |');
  console.log('|---|---|---|---|---|---|');
  for (const [name, make] of projects) {
    const store = await make();
    for (let r = 1; r <= rounds; r++) {
      const { firstStep, cancel, before } = await trainThenCancel(dir, store);
      console.log(
        `| ${name} | ${r} | ${firstStep.toFixed(1)} | ${firstStep <= 5 ? 'met' : 'missed'} (≤ 5 s) | ${cancel.toFixed(1)} | ${before} |`,
      );
    }
    store.close();
  }
  rmSync(dir, { recursive: true, force: true });
}
