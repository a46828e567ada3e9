// Chinese words of a run of Han characters, by jieba (jieba-wasm: jieba-rs compiled to
// WebAssembly, its dictionary of about 350,000 words built in, and an HMM over character
// states for words the dictionary lacks). Chosen over ICU's Chinese dictionary on the
// Tsinghua zh–en test set's hand-segmented Chinese (docs/experiments.md, "Which segmenter
// cuts Chinese as its readers do?"): names and common words ICU cuts (拉曼, 马利亚, 年轻人,
// 传教士, 见证人, 两个) stay whole, and function words ICU glues on (你在, 今天是) come apart.
// segment.ts gives it the Han runs only; digits, Latin and punctuation stay with ICU.
// Loaded on first use (about 0.3 s to compile, 1.8 s and 70 MB to build its dictionary on
// the first cut), so a process that never segments Chinese never pays for it.
import { createRequire } from 'node:module';

interface Jieba {
  cut(text: string, hmm?: boolean | null): string[];
}

let jieba: Jieba | null = null;

/** Appends the spans of the words of Han run text[from, to) to `out`. */
export function chineseWordsInto(text: string, out: number[], from: number, to: number): void {
  jieba ??= createRequire(import.meta.url)('jieba-wasm') as Jieba;
  let at = from;
  for (const word of jieba.cut(text.slice(from, to), true)) {
    out.push(at, at + word.length);
    at += word.length;
  }
  if (at !== to) throw new Error(`jieba lost characters of a ${to - from}-unit Han run`);
}
