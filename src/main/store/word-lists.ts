// The word lists segmentation uses for a project ("segmentation that learns"): the words
// its linguists fixed by splitting or merging tokens (table word_list), plus, for Lao,
// the bundled Lao–English dictionary's headwords (loaded once per process).
import { canonicalLang } from '../text/lang.ts';
import { loadLaoEnglishHeadwords } from '../text/lao-dictionary.ts';
import { WordList } from '../text/word-list.ts';
import type { Db } from './database.ts';
import type { ProjectStore } from './project-store.ts';

let laoHeadwords: Promise<WordList> | null = null;

async function baseList(lang: string): Promise<string[]> {
  if (canonicalLang(lang) !== 'lo') return [];
  laoHeadwords ??= loadLaoEnglishHeadwords();
  return (await laoHeadwords).words();
}

/** Word lists keyed by the project's source and target language codes. */
export async function projectWordLists(store: ProjectStore): Promise<Record<string, WordList>> {
  const { srcLang, tgtLang } = store.meta();
  const lists: Record<string, WordList> = {};
  for (const lang of new Set([srcLang, tgtLang])) {
    const fixed = (store.db.prepare('SELECT word FROM word_list WHERE lang = ?').all(lang) as { word: string }[]).map((r) => r.word);
    const words = [...(await baseList(lang)), ...fixed];
    if (words.length) lists[lang] = WordList.fromWords(words);
  }
  return lists;
}

/** Adds words a linguist fixed (split or merge) to the project's list for `lang`; call inside the edit's transaction. */
export function addFixedWords(db: Db, lang: string, words: readonly string[], annotator: string): void {
  const put = db.prepare('INSERT OR IGNORE INTO word_list (lang, word, added_by) VALUES (?, ?, ?)');
  for (const w of words) if (w.trim()) put.run(lang, w, annotator);
}
