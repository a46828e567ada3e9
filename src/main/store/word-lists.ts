// The word lists segmentation uses for a project ("segmentation that learns"): the words
// its linguists fixed by splitting or merging tokens and those of word list files given to
// `mekong import` or `mekong resegment` (table word_list, `added_by` saying which), the words
// learned from the corpus (added_by LEARNED; they only merge pieces, as the dictionary's do),
// plus, for Lao, the bundled Lao–English dictionary's headwords (loaded once per process).
import type { WordListEntry } from '../../shared/api.ts';
import { canonicalLang } from '../text/lang.ts';
import { loadLaoEnglishHeadwords } from '../text/lao-dictionary.ts';
import { WordList } from '../text/word-list.ts';
import type { Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';

let laoHeadwords: Promise<WordList> | null = null;

/** added_by of the words learned from the corpus (text/corpus-words.ts). */
export const LEARNED = 'learned from the corpus';

/** The bundled dictionary's headwords for `lang` (they only merge pieces: WordList.add). */
async function baseList(lang: string): Promise<string[]> {
  if (canonicalLang(lang) !== 'lo') return [];
  laoHeadwords ??= loadLaoEnglishHeadwords();
  return (await laoHeadwords).words();
}

/** What these functions read of a project store (its type is not imported: the store imports this module). */
interface ProjectLanguages extends Project {
  meta(): { srcLang: string; tgtLang: string };
}

/** Words for each side of a project, not (yet) in its word_list table. */
export interface SideWords {
  src?: readonly string[];
  tgt?: readonly string[];
}

/** Word lists keyed by the project's source and target language codes; `extra` words join the side's language. */
export async function projectWordLists(store: ProjectLanguages, extra: SideWords = {}): Promise<Record<string, WordList>> {
  const { srcLang, tgtLang } = store.meta();
  const lists: Record<string, WordList> = {};
  for (const lang of new Set([srcLang, tgtLang])) {
    const rows = dbOf(store).prepare('SELECT word, added_by FROM word_list WHERE lang = ?').all(lang) as {
      word: string;
      added_by: string;
    }[];
    const more = [...(lang === srcLang ? (extra.src ?? []) : []), ...(lang === tgtLang ? (extra.tgt ?? []) : [])];
    const list = WordList.fromWords([...rows.filter((r) => r.added_by !== LEARNED).map((r) => r.word), ...more]);
    for (const r of rows) if (r.added_by === LEARNED) list.add(r.word, 'merge-only');
    for (const w of await baseList(lang)) list.add(w, 'merge-only');
    if (list.size) lists[lang] = list;
  }
  return lists;
}

/** Adds words a linguist fixed (split or merge) to the project's list for `lang`; call inside the edit's transaction. */
export function addFixedWords(project: Project, lang: string, words: readonly string[], annotator: string): void {
  const db = dbOf(project);
  const put = db.prepare('INSERT OR IGNORE INTO word_list (lang, word, added_by) VALUES (?, ?, ?)');
  for (const w of words) if (w.trim()) put.run(lang, w, annotator);
}

/** Adds words learned from the corpus to the project's list for `lang`; returns how many were new. */
export function addLearnedWords(store: Project, lang: string, words: readonly string[]): number {
  const db = dbOf(store);
  const put = db.prepare('INSERT OR IGNORE INTO word_list (lang, word, added_by) VALUES (?, ?, ?)');
  return db.transaction(() => words.reduce((n, w) => n + put.run(lang, w, LEARNED).changes, 0))();
}

/** Adds a word list file's words to the list of each side's language (`from` goes to added_by); returns how many were new. */
export function addSideWords(store: ProjectLanguages, words: SideWords, from: string): number {
  const { srcLang, tgtLang } = store.meta();
  const db = dbOf(store);
  const count = () => (db.prepare('SELECT count(*) AS n FROM word_list').get() as { n: number }).n;
  return db.transaction(() => {
    const before = count();
    addFixedWords(store, srcLang, words.src ?? [], from);
    addFixedWords(store, tgtLang, words.tgt ?? [], from);
    return count() - before;
  })();
}

/** Which of a project's words to list or remove: one language's, only the learned ones, only these words. */
export interface WordListFilter {
  lang?: string;
  learned?: boolean;
  words?: readonly string[];
}

function whereOf(filter: WordListFilter): { sql: string; args: string[] } {
  const terms: string[] = [];
  const args: string[] = [];
  if (filter.lang !== undefined) {
    terms.push('lang = ?');
    args.push(filter.lang);
  }
  if (filter.learned) {
    terms.push('added_by = ?');
    args.push(LEARNED);
  }
  if (filter.words !== undefined) {
    terms.push(`word IN (SELECT value FROM json_each(?))`);
    args.push(JSON.stringify(filter.words));
  }
  return { sql: terms.length ? `WHERE ${terms.join(' AND ')}` : '', args };
}

/** The project's own words (not the bundled dictionary's), by language and word. */
export function listWords(project: Project, filter: WordListFilter = {}): WordListEntry[] {
  const { sql, args } = whereOf(filter);
  return dbOf(project)
    .prepare(`SELECT lang, word, added_by AS addedBy FROM word_list ${sql} ORDER BY lang, word`)
    .all(...args) as WordListEntry[];
}

/**
 * Takes words off the project's list (a learned name that is no word, a fix made by
 * mistake); returns the entries removed. Tokens already segmented with them stay as they
 * are until the project is re-segmented.
 */
export function removeWords(project: Project, filter: WordListFilter): WordListEntry[] {
  if (filter.words === undefined && !filter.learned) throw new Error('removeWords: name the words, or the learned ones');
  const db = dbOf(project);
  return db.transaction(() => {
    const gone = listWords(project, filter);
    const { sql, args } = whereOf(filter);
    db.prepare(`DELETE FROM word_list ${sql}`).run(...args);
    return gone;
  })();
}

/**
 * The project's language codes changed (a wrong code corrected): each side's fixed words
 * follow it to its new code, and the lists of codes no side uses any more go.
 */
export function relabelWordLists(db: Db, before: { srcLang: string; tgtLang: string }, after: { srcLang: string; tgtLang: string }): void {
  const copy = db.prepare('INSERT OR IGNORE INTO word_list (lang, word, added_by) SELECT ?, word, added_by FROM word_list WHERE lang = ?');
  if (before.srcLang !== after.srcLang) copy.run(after.srcLang, before.srcLang);
  if (before.tgtLang !== after.tgtLang) copy.run(after.tgtLang, before.tgtLang);
  for (const old of new Set([before.srcLang, before.tgtLang]))
    if (old !== after.srcLang && old !== after.tgtLang) db.prepare('DELETE FROM word_list WHERE lang = ?').run(old);
}
