// The project's link tag set (meta 'link_tags', a JSON array of names): read with the
// default GALE-style set when the project never chose one, replaced as a whole.
import { DEFAULT_LINK_TAGS, linkTagSet } from '../../shared/link-tags.ts';
import { dbOf, type Project } from './connection.ts';

export function linkTags(project: Project): string[] {
  const db = dbOf(project);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'link_tags'`).get() as { value: string } | undefined;
  if (!row) return [...DEFAULT_LINK_TAGS];
  const parsed = linkTagSet.safeParse(JSON.parse(row.value));
  return parsed.success ? parsed.data : [...DEFAULT_LINK_TAGS];
}

/** Replaces the tag set; links keep the tags they have (a tag dropped from the set stays on its links and in exports). */
export function setLinkTags(project: Project, tags: readonly string[]): string[] {
  const db = dbOf(project);
  const checked = linkTagSet.parse(tags);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('link_tags', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
    JSON.stringify(checked),
  );
  return checked;
}
