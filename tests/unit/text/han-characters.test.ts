// Chinese by character: Han characters become pieces of their own, other runs inside a
// word stay whole, tokens keep their offsets, and word links cover every character pair.
import { expect, test } from 'vitest';
import { characterLinks, chineseSides, splitHan, splitHanTokens } from '../../../src/main/text/han-characters.ts';
import { segment } from '../../../src/main/text/segment.ts';

test('Han characters alone, other runs whole, each piece knowing its word', () => {
  expect(splitHan(['科学家', '5月', 'dr.', '阿什拉夫·哈尼'])).toEqual({
    chars: ['科', '学', '家', '5', '月', 'dr.', '阿', '什', '拉', '夫', '·', '哈', '尼'],
    wordOf: [0, 0, 0, 1, 1, 2, 3, 3, 3, 3, 3, 3, 3],
  });
  expect(splitHan(['𠮷野'])).toEqual({ chars: ['𠮷', '野'], wordOf: [0, 0] });
});

test('tokens split with their offsets into the sentence (a character outside the BMP counts two units)', () => {
  const text = '我们在𠮷野3月见';
  const words = segment(text, 'zh');
  const { tokens, wordOf } = splitHanTokens(words);
  expect(tokens.map((t) => t.text)).toEqual(['我', '们', '在', '𠮷', '野', '3', '月', '见']);
  for (const t of tokens) expect(text.slice(t.start, t.end)).toBe(t.text);
  tokens.forEach((t, i) => expect(words[wordOf[i]].start <= t.start && t.end <= words[wordOf[i]].end).toBe(true));
  expect(new Set(wordOf).size).toBe(words.length);
});

test('a word link covers every character pair, keeping its kind; Chinese sides from language codes', () => {
  expect(characterLinks([{ s: 0, t: 1, kind: 'possible' as const }], [0, 0, 1], [0, 1, 1])).toEqual([
    { s: 0, t: 1, kind: 'possible' },
    { s: 0, t: 2, kind: 'possible' },
    { s: 1, t: 1, kind: 'possible' },
    { s: 1, t: 2, kind: 'possible' },
  ]);
  expect([chineseSides('zh', 'en'), chineseSides('lo', 'zh-Hans'), chineseSides('zh', 'zh'), chineseSides('lo', 'th')]).toEqual([
    'src',
    'tgt',
    'both',
    null,
  ]);
});
