// The bundled sample project: the CC0 Lao–Thai embassy corpus (resources/sample),
// imported with segmentation into the user's data folder on first use. It is built
// under a temporary name and renamed into place, so a half-made sample never opens.
import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { resourcesDir } from '../paths.ts';
import { ProjectStore } from '../store/project-store.ts';
import { runImport } from './import-pipeline.ts';

export const SAMPLE_FILE = 'sample-lao-thai.mekong';

export function sampleCorpusPath(): string {
  return join(resourcesDir(), 'sample', 'vientiane-thaiembassy-sent.csv');
}

/** How the sample corpus is imported: its CSV columns, segmented. */
export function sampleImport() {
  return {
    file: sampleCorpusPath(),
    format: 'csv',
    header: true,
    srcColumn: 'lao_sent',
    tgtColumn: 'thai_sent',
    tokenization: 'segment',
  } as const;
}

/** Builds a project from the sample corpus at `path` (which must not exist). */
export async function buildSampleProject(path: string): Promise<ProjectStore> {
  const store = ProjectStore.create(path, { name: 'Lao–Thai embassy sample', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  return store;
}

export async function openOrCreateSample(dataDir: string): Promise<ProjectStore> {
  const path = join(dataDir, SAMPLE_FILE);
  if (existsSync(path)) return ProjectStore.open(path);
  const partial = `${path}.building`;
  for (const suffix of ['', '-wal', '-shm']) rmSync(partial + suffix, { force: true });
  (await buildSampleProject(partial)).close();
  renameSync(partial, path);
  return ProjectStore.open(path);
}
