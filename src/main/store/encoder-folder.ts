// The pretrained encoder folder a project names (meta 'encoder_dir'): a Hugging Face folder
// on this machine (models/transformer/) whose similarity aligners the Align job then offers.
// The folder stays where it is; the project keeps only its path.
import { dbOf, type Project } from './connection.ts';

export function encoderDir(project: Project): string | null {
  const db = dbOf(project);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'encoder_dir'`).get() as { value: string } | undefined;
  return row?.value ?? null;
}

/** Names the folder, or (null) forgets it. */
export function setEncoderDir(project: Project, dir: string | null): void {
  const db = dbOf(project);
  if (dir === null) db.prepare(`DELETE FROM meta WHERE key = 'encoder_dir'`).run();
  else
    db.prepare(`INSERT INTO meta (key, value) VALUES ('encoder_dir', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(dir);
}
