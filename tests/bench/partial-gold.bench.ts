// `npm run bench -- partial-gold [--langs tha,ind] [--methods agree,hmm,agree:post:0.1,…] [--eflomal PATH] [--pairs N]`
// (a method as NAME[:SYM[:THRESHOLD]]: its symmetrisation and posterior threshold, e.g. agree:post:0.1)
// Issue 19 item 4: word-alignment recall on Thai, Indonesian (and Chinese: --langs tha,ind,cmn) against English
// where no human gold exists here. The development set: the Tatoeba x–eng pairs of
// ../shared/data/tatoeba-v1 (segmented and lowercased as the neural bench does), and as
// partial gold the links the MUSE x–en dictionaries (both files of the pair, ../shared/data/
// muse-dicts) propose inside each pair: source word i and target word j linked when (s_i, t_j)
// is an entry and neither word has another entry partner in that pair
// (align/dictionary-links.ts, the same 1-to-1 filter the dictionary supervision uses). Such
// links are nearly always right but cover only the words the dictionary knows, so the
// figure is recall; precision is shown only over the words that have a gold link (links
// from a gold-linked source word that are gold), and methods are compared at the same number
// of links: a method that outputs more links than eflomal is cut to eflomal's count,
// dropping its lowest-scoring links (the "recall at no more links than eflomal's").
// The aligners read no dictionary here (the dictionary is the answer key).
// eflomal (robertostling/eflomal, built outside this repository) runs when --eflomal names
// its eflomal-align script: both directions (its default model 3), symmetrised by our
// grow-diag-final-and (align/symmetrise.ts), as atools would.
import { benchOptions, listOption, numberOption } from './bench-options.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Link } from '../../src/shared/domain.ts';
import { DEFAULT_METHOD } from '../../src/shared/methods.ts';
import type { DictEntry } from '../../src/main/align/dictionary.ts';
import { dictionaryIndex, dictionaryLinks } from '../../src/main/align/dictionary-links.ts';
import { keySet, linkKey, type LinkRef } from '../../src/shared/link-set.ts';
import { symmetriser } from '../../src/main/align/symmetrise.ts';
import { alignerOf } from '../../src/main/aligners/registry.ts';
import { withProgressBar } from '../../src/main/cli/progress-bar.ts';
import { parsePharaohText } from '../../src/main/corpus/pharaoh.ts';
import { tatoeba } from './neural.bench.ts';

const DATA = join(import.meta.dirname, '../../../shared/data');
const CODES: Record<string, string> = { tha: 'th', ind: 'id', cmn: 'zh', vie: 'vi' };

/** The MUSE x–en and en–x files read as x → en entries (lowercased). */
export function museEntries(code: string): DictEntry[] {
  const out: DictEntry[] = [];
  const read = (file: string, flip: boolean) => {
    const path = join(DATA, 'muse-dicts', file);
    if (!existsSync(path)) return;
    for (const line of readFileSync(path, 'utf8').split('\n')) {
      const [a, b] = line.trim().toLowerCase().split(/\s+/);
      if (a && b) out.push(flip ? { src: b, tgt: a, weight: 1 } : { src: a, tgt: b, weight: 1 });
    }
  };
  read(`${code}-en.txt`, false);
  read(`en-${code}.txt`, true);
  return out;
}

/** eflomal's two directions, symmetrised by grow-diag-final-and. */
export function eflomal(script: string, src: string[][], tgt: string[][]): Link[][] {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-eflomal-'));
  try {
    const f = (n: string) => join(dir, n);
    writeFileSync(f('s'), src.map((s) => s.join(' ')).join('\n') + '\n');
    writeFileSync(f('t'), tgt.map((t) => t.join(' ')).join('\n') + '\n');
    execFileSync(script, ['-s', f('s'), '-t', f('t'), '-f', f('fwd'), '-r', f('rev'), '--overwrite'], { stdio: 'ignore' });
    const fwd = parsePharaohText(readFileSync(f('fwd'), 'utf8'), 0, 'eflomal fwd');
    const rev = parsePharaohText(readFileSync(f('rev'), 'utf8'), 0, 'eflomal rev');
    const gdfa = symmetriser('gdfa');
    return src.map((s, k) => {
      const I = s.length,
        J = tgt[k].length;
      const m = { I, J, fwd: new Uint8Array(I * J), rev: new Uint8Array(I * J), mean: new Float32Array(I * J) };
      for (const l of fwd[k] ?? []) m.fwd[l.s * J + l.t] = 1;
      for (const l of rev[k] ?? []) m.rev[l.s * J + l.t] = 1;
      const a = gdfa(m);
      const links: Link[] = [];
      for (let x = 0; x < a.length; x++) if (a[x]) links.push({ s: Math.floor(x / J), t: x % J, kind: 'sure', score: 1 });
      return links;
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `links` with no more than `max` links over the corpus: the lowest-scoring dropped (ties: later pairs first). */
export function capLinks(links: Link[][], max: number): Link[][] {
  const total = links.reduce((n, l) => n + l.length, 0);
  if (total <= max) return links;
  const all = links.flatMap((ls, k) => ls.map((l) => ({ k, l })));
  all.sort((a, b) => (b.l.score ?? 1) - (a.l.score ?? 1));
  const out: Link[][] = links.map(() => []);
  for (const { k, l } of all.slice(0, max)) out[k].push(l);
  return out;
}

interface Row {
  links: number;
  recall: number;
  /** of the links from a gold-linked source word, the share that are gold */
  precision: number;
}

export function score(links: Link[][], gold: LinkRef[][]): Row {
  let hit = 0,
    goldN = 0,
    fromGoldWord = 0,
    fromGoldWordHit = 0,
    n = 0;
  gold.forEach((g, k) => {
    const ls = links[k] ?? [];
    n += ls.length;
    const want = keySet(g);
    const goldSrc = new Set(g.map((l) => l.s));
    goldN += g.length;
    for (const l of ls) {
      const ok = want.has(linkKey(l.s, l.t));
      if (ok) hit++;
      if (goldSrc.has(l.s)) {
        fromGoldWord++;
        if (ok) fromGoldWordHit++;
      }
    }
  });
  return { links: n, recall: hit / goldN, precision: fromGoldWordHit / Math.max(1, fromGoldWord) };
}

const f3 = (x: number) => x.toFixed(3);

export default async function bench(args: string[]): Promise<void> {
  const o = benchOptions('partial-gold', args, {
    langs: { type: 'string', default: 'tha,ind' },
    methods: { type: 'string', default: DEFAULT_METHOD },
    eflomal: { type: 'string' },
    pairs: { type: 'string', default: '100000' },
  });
  if (!o) return;
  const langs = listOption(o.langs);
  const methods = listOption(o.methods);
  const script = o.eflomal;
  const pairs = numberOption('pairs', o.pairs)!;
  if (script && !existsSync(script)) throw new Error(`--eflomal ${script}: no such file`);
  for (const lang of langs) {
    const code = CODES[lang];
    if (!code || !existsSync(join(DATA, 'tatoeba-v1', `tatoeba.${lang}-eng.${lang}`))) {
      console.log(`${lang}: no Tatoeba set here`);
      continue;
    }
    const all = tatoeba(lang, code);
    const src = all.src.slice(0, pairs),
      tgt = all.tgt.slice(0, pairs);
    const gold = dictionaryLinks(src, tgt, dictionaryIndex(museEntries(code)));
    const goldLinks = gold.reduce((n, g) => n + g.length, 0);
    console.log(
      `\n${lang}-eng: ${src.length} pairs, ${goldLinks} partial-gold links in ${gold.filter((g) => g.length).length} pairs (MUSE ${code}-en, 1-to-1 matches)`,
    );
    const results = new Map<string, Link[][]>();
    if (script) results.set('eflomal', eflomal(script, src, tgt));
    for (const m of methods) {
      const [name, sym, threshold] = m.split(':');
      results.set(m, [...(await (await alignerOf(name, new Set()))(src, tgt, { sym, threshold }, withProgressBar))]);
    }
    const cap = results.get('eflomal')?.reduce((n, l) => n + l.length, 0);
    console.log(
      `${'method'.padEnd(16)}${'links'.padStart(8)}${'recall'.padStart(9)}${'prec.gw'.padStart(9)}${cap ? "  at eflomal's link count: links   recall  prec.gw" : ''}`,
    );
    for (const [name, links] of results) {
      const r = score(links, gold);
      let line = `${name.padEnd(16)}${String(r.links).padStart(8)}${f3(r.recall).padStart(9)}${f3(r.precision).padStart(9)}`;
      if (cap) {
        const c = score(capLinks(links, cap), gold);
        line += `${String(c.links).padStart(31)}${f3(c.recall).padStart(9)}${f3(c.precision).padStart(9)}`;
      }
      console.log(line);
    }
  }
}
