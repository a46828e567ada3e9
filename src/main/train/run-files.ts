// Where a training run keeps its files: a folder beside the project file,
//   <project>.models/run-<id>/epoch-<n>/   (a model folder, nn/model-folder.ts)
// A checkpoint is written under a temporary name beside and renamed when complete (as every
// model folder is), so a folder named epoch-<n> is always whole; only checkpoints recorded in
// the project count, and pruneCheckpoints removes the rest, temporary folders included.
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

export function runDir(projectPath: string, runId: number): string {
  return join(`${projectPath}.models`, `run-${runId}`);
}

export function checkpointDir(runFolder: string, epoch: number): string {
  return join(runFolder, `epoch-${epoch}`);
}

/** Removes a run's folders of epochs not in `keep` (a cancelled or failed run's unrecorded or partial ones). */
export function pruneCheckpoints(runFolder: string, keep: ReadonlySet<number>): void {
  if (!existsSync(runFolder)) return;
  for (const name of readdirSync(runFolder)) {
    const m = /^epoch-(\d+)$/.exec(name);
    if (!m || !keep.has(Number(m[1]))) rmSync(join(runFolder, name), { recursive: true, force: true });
  }
}

export function removeRunFiles(projectPath: string, runId: number): void {
  rmSync(runDir(projectPath, runId), { recursive: true, force: true });
}
