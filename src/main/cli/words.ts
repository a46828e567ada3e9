// `mekong words P [--lang L] [--learned] [--json]` lists the words a project segments with
// (fixed by its linguists, read from word list files, learned from its corpus);
// `mekong words P --remove [WORD…] [--learned] [--lang L]` takes words off that list — a
// learned "name" that is no word, a merge made by mistake. Tokens already cut with a word
// keep their cut until `mekong resegment P`, which the message says.
import type { Command } from 'commander';
import { UserError } from '../errors.ts';
import { ProjectStore } from '../store/project-store.ts';
import { LEARNED, listWords, removeWords, type WordListFilter } from '../store/word-lists.ts';

interface WordsFlags {
  lang?: string;
  learned?: boolean;
  remove?: boolean;
  json?: boolean;
}

function remove(store: ProjectStore, file: string, words: string[], o: WordsFlags): string {
  if (words.length === 0 && !o.learned)
    throw new UserError('--remove takes the words to remove, or --learned to remove every learned word');
  const filter: WordListFilter = { lang: o.lang, learned: o.learned, words: words.length ? words : undefined };
  if (words.length) {
    const listed = new Set(listWords(store, filter).map((e) => e.word));
    const missing = words.filter((w) => !listed.has(w));
    if (missing.length)
      throw new UserError(
        `not in ${file}'s word list${o.lang ? ` for ${o.lang}` : ''}${o.learned ? ' as learned' : ''}: ${missing.join(', ')} (nothing removed; \`mekong words ${file}\` lists it)`,
      );
  }
  const gone = removeWords(store, filter);
  const byLang = new Map<string, string[]>();
  for (const e of gone) byLang.set(e.lang, [...(byLang.get(e.lang) ?? []), e.word]);
  const list = [...byLang].map(([lang, ws]) => `${lang}: ${ws.join(', ')}`).join('; ');
  return `removed ${gone.length} word${gone.length === 1 ? '' : 's'}${gone.length ? ` (${list})` : ''}; tokens cut with them stay as they are until \`mekong resegment ${file}\``;
}

export function register(program: Command): void {
  program
    .command('words')
    .description(
      "list the project's word list (words its linguists fixed, word list files' words, words learned from the corpus), or remove words from it",
    )
    .argument('<project>', 'the project file')
    .argument('[words...]', 'with --remove: the words to remove')
    .option('--lang <code>', 'only this language (a side of the project)')
    .option('--learned', `only the words learned from the corpus (added by "${LEARNED}")`)
    .option('--remove', 'remove the words given (or, with --learned, every learned word) from the list')
    .option('--json', 'print the list as JSON: [{lang, word, addedBy}]')
    .action((file: string, words: string[], o: WordsFlags) => {
      if (words.length && !o.remove) throw new UserError(`words are given only with --remove (got ${words.join(' ')})`);
      const store = ProjectStore.open(file);
      try {
        const { srcLang, tgtLang } = store.meta();
        if (o.lang !== undefined && o.lang !== srcLang && o.lang !== tgtLang)
          throw new UserError(`--lang ${o.lang}: the project's languages are ${srcLang} and ${tgtLang}`);
        if (o.remove) return console.log(remove(store, file, words, o));
        const entries = listWords(store, { lang: o.lang, learned: o.learned });
        if (o.json) return console.log(JSON.stringify(entries));
        for (const e of entries) console.log(`${e.lang}\t${e.word}\t${e.addedBy}`);
        process.stderr.write(`${entries.length} word${entries.length === 1 ? '' : 's'}\n`);
      } finally {
        store.close();
      }
    });
}
