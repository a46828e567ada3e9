// The dictionaries a language pair gets by default (align/default-dictionaries.ts): the
// shipped ones connecting the two languages directly or through one pivot, under any code
// of the language; none for a pair they do not reach; merged with a user's own entries so
// that a word pair a user's dictionary has counts once, while a dictionary's own repeated
// entries stay.
import { expect, test } from 'vitest';
import { defaultDictionaries, mergedEntries } from '../../../src/main/align/default-dictionaries.ts';
import { loadDictionarySpec, parseDictionarySpec } from '../../../src/main/align/dictionary-sources.ts';

test('direct and pivot dictionaries, oriented source to target, under any language code', () => {
  expect(defaultDictionaries('lo', 'en')).toEqual([{ specs: ['lo-en:bundled'], label: 'Lao–English (MOPT, MIT)' }]);
  expect(defaultDictionaries('eng', 'lao').map((d) => d.specs)).toEqual([['en-lo:bundled']]);
  expect(defaultDictionaries('cmn', 'en').map((d) => d.specs)).toEqual([['zh-en:cedict'], ['zh-en:cedict-trad']]);
  expect(defaultDictionaries('lo', 'zh-Hans').map((d) => [d.specs, d.via])).toEqual([
    [['lo-en:bundled', 'en-zh:cedict'], 'en'],
    [['lo-en:bundled', 'en-zh:cedict-trad'], 'en'],
  ]);
  for (const [a, b] of [
    ['lo', 'th'],
    ['en', 'vi'],
    ['en', 'en'],
    ['xx', 'yy'],
  ])
    expect(defaultDictionaries(a, b)).toEqual([]);
});

test('merged entries: own first, a pair in two dictionaries once, one dictionary as it reads', () => {
  const mopt = loadDictionarySpec(parseDictionarySpec('lo-en:bundled'), 'word');
  const key = (e: { src: string; tgt: string }) => `${e.src}\t${e.tgt}`;
  expect(new Set(mopt.map(key)).size).toBeLessThan(mopt.length); // a headword's senses can give one pair more than once
  const own = [
    { src: 'ແມວ', tgt: 'cat', weight: 0.5 },
    { src: 'ຄຳໃໝ່', tgt: 'newword', weight: 1 },
  ];
  const merged = mergedEntries(own, defaultDictionaries('lo', 'en'));
  expect(merged.slice(0, 2)).toEqual(own);
  expect(merged.filter((e) => key(e) === 'ແມວ\tcat')).toEqual([own[0]]);
  expect(merged.slice(2)).toEqual(mopt.filter((e) => key(e) !== 'ແມວ\tcat'));
});
