// Whether the project's annotators see each other's work (meta 'annotators_share'). Off
// by default, for blind double annotation: an annotator's editor, suggestions and
// concordance show only their own gold and rejections, so a second annotation is
// independent of the first and their agreement means something. A guard on the working
// views, not access control: the adjudication and agreement views compare everyone's.
import { dbOf, type Project } from './connection.ts';

export function annotatorsShare(project: Project): boolean {
  const db = dbOf(project);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'annotators_share'`).get() as { value: string } | undefined;
  return row?.value === '1';
}

export function setAnnotatorsShare(project: Project, share: boolean): void {
  const db = dbOf(project);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('annotators_share', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
    share ? '1' : '0',
  );
}
