// The siamese head folders (seed 004) a project has recorded, in meta 'siamese_heads' (a JSON
// list of paths, the latest first): heads applied in its Mine or Score parallelism jobs and heads
// `mekong siamese --project` trained on its pairs. The folders stay where they are; the Models
// page lists them (api/models-handlers.ts) and the Mine and Score dialogs offer them.
import { dbOf, type Project } from './connection.ts';

export function recordedHeads(project: Project): string[] {
  const row = dbOf(project).prepare(`SELECT value FROM meta WHERE key = 'siamese_heads'`).get() as { value: string } | undefined;
  return row ? (JSON.parse(row.value) as string[]) : [];
}

/** Records a head folder (an absolute path), first in the list; one already recorded moves to the front. */
export function recordHead(project: Project, dir: string): void {
  const heads = [dir, ...recordedHeads(project).filter((d) => d !== dir)];
  dbOf(project)
    .prepare(`INSERT INTO meta (key, value) VALUES ('siamese_heads', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`)
    .run(JSON.stringify(heads));
}
