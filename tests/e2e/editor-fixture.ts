// Shared set-up for the editor's e2e tests: a project of the bundled Lao–Thai sample made
// through the real API (create, import with segmentation, optionally align), and small
// readers of what the store committed, to check the UI against.
import { join } from 'node:path';
import type { AppContext } from '../../src/main/api/app-context.ts';
import { dispatch } from '../../src/main/api/dispatch.ts';
import { editorPair } from '../../src/main/review/editor.ts';
import type { EditorPair } from '../../src/shared/editor-api.ts';

export const SAMPLE = join(import.meta.dirname, '../../resources/sample/vientiane-thaiembassy-sent.csv');

async function call(ctx: AppContext, channel: string, input: unknown): Promise<unknown> {
  const r = await dispatch(ctx, channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.error}`);
  return r.value;
}

/** Runs a job-starting channel and resolves when the job is done. */
export async function runJob(ctx: AppContext, channel: 'import.start' | 'align.start', input: unknown): Promise<void> {
  const finished = new Promise<void>((resolve, reject) => {
    const off = ctx.jobs.onEvent((e) => {
      if (e.type === 'job.done') resolve();
      else if (e.type === 'job.failed' || e.type === 'job.cancelled') reject(new Error(`${channel}: ${e.type}`));
      if (e.type !== 'job.progress') off();
    });
  });
  await call(ctx, channel, input);
  await finished;
}

/** Creates a Lao–Thai project at `path` holding the sample corpus. */
export async function sampleProject(ctx: AppContext, path: string): Promise<void> {
  await call(ctx, 'project.create', { path, name: 'Editor test', srcLang: 'lo', tgtLang: 'th' });
  // ICU's tokens as the tests count them: no words learned from the corpus (import-learn-words.e2e tests that)
  await runJob(ctx, 'import.start', {
    file: SAMPLE,
    format: 'csv',
    header: true,
    srcColumn: 'lao_sent',
    tgtColumn: 'thai_sent',
    learnWords: false,
  });
}

/** What the store holds for a pair, as the annotator sees it. */
export function committed(ctx: AppContext, pairId: number): EditorPair {
  if (!ctx.store) throw new Error('no project open');
  return editorPair(ctx.store, ctx.annotator, pairId);
}

export const linkKeys = (p: EditorPair) => p.gold.map((l) => `${l.s}-${l.t}${l.kind === 'possible' ? 'p' : ''}`);
