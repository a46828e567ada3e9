// Dictionaries attached to a project (table dictionaries): their entries are copied into
// the project file as src<TAB>tgt<TAB>weight text, so a project keeps aligning the same
// way when the file it came from moves or changes, and a composed dictionary need not be
// composed again. Parsing the text is align/dictionary.ts's job (align/ sits above store/).
// Whether the project's jobs also use the dictionaries that ship with Mekong for its languages
// (align/default-dictionaries.ts) is meta 'shipped_dictionaries': on unless set to '0'.
import type { DictionaryInfo } from '../../shared/dictionaries-api.ts';
import { UserError } from '../errors.ts';
import { dbOf, type Project } from './connection.ts';

interface Row {
  id: number;
  name: string;
  source: string;
  entry_count: number;
  attached_at: string;
}

export function listDictionaries(project: Project): DictionaryInfo[] {
  const db = dbOf(project);
  const rows = db.prepare('SELECT id, name, source, entry_count, attached_at FROM dictionaries ORDER BY id').all() as Row[];
  return rows.map((r) => ({ id: r.id, name: r.name, source: JSON.parse(r.source), entries: r.entry_count, attachedAt: r.attached_at }));
}

/** Stores a dictionary's entries (TSV text of `entries` lines); returns its id. */
export function attachDictionary(
  project: Project,
  d: { name: string; source: DictionaryInfo['source']; text: string; entries: number },
): number {
  const db = dbOf(project);
  const r = db
    .prepare('INSERT INTO dictionaries (name, source, entries, entry_count, attached_at) VALUES (?, ?, ?, ?, ?)')
    .run(d.name, JSON.stringify(d.source), d.text, d.entries, new Date().toISOString());
  return Number(r.lastInsertRowid);
}

export function detachDictionary(project: Project, id: number): void {
  const db = dbOf(project);
  if (db.prepare('DELETE FROM dictionaries WHERE id = ?').run(id).changes === 0)
    throw new UserError(`no dictionary ${id} is attached to this project`);
}

/** Every attached dictionary's name and entries text, in the order they were attached. */
export function attachedDictionaryTexts(project: Project): { name: string; text: string }[] {
  const db = dbOf(project);
  return db.prepare('SELECT name, entries AS text FROM dictionaries ORDER BY id').all() as { name: string; text: string }[];
}

/** Whether the project's jobs use the shipped dictionaries of its languages (on unless switched off). */
export function usesShippedDictionaries(project: Project): boolean {
  const db = dbOf(project);
  const row = db.prepare(`SELECT value FROM meta WHERE key = 'shipped_dictionaries'`).get() as { value: string } | undefined;
  return row?.value !== '0';
}

export function setUsesShippedDictionaries(project: Project, use: boolean): void {
  const db = dbOf(project);
  db.prepare(`INSERT INTO meta (key, value) VALUES ('shipped_dictionaries', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value`).run(
    use ? '1' : '0',
  );
}
