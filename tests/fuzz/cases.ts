// Fuzz cases for every import format and links format: a valid file built from a few real
// Lao–Thai and English–Vietnamese pairs, then (most of the time) broken by one mutation —
// byte flips, truncation, a BOM or NUL in the middle, invalid UTF-8, a huge line, broken
// quoting, ragged columns, TMX entity attacks, JSON values of the wrong type, links out of
// range. A case knows the pairs its file holds (their texts) when the corpus file is left as
// it was.
export type Format = 'tsv' | 'csv' | 'moses' | 'fastalign' | 'tmx' | 'jsonl';

export interface FuzzCase {
  seed: number;
  format: Format;
  /** The corpus file(s): one, or the source and target of a Moses pair. */
  files: Buffer[];
  /** A links file for the pairs, when the case has one. */
  links?: { content: Buffer; format: 'pharaoh' | 'talp' };
  header?: boolean;
  /** Pairs the import must add when it succeeds; null when a mutation may have changed the count. */
  pairs: number | null;
  /** The source and target text of each pair the import must add, in order; null with `pairs`. */
  rows: [string, string][] | null;
  mutation: string;
}

/** mulberry32: small, fast and seedable, so every case can be replayed from its seed. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PAIRS: [string, string][] = [
  ['ສະບາຍດີ ໂລກ', 'สวัสดี โลก'],
  ['ເອກອັກຄະລັດຖະທູດ ໄດ້ ເດີນທາງ ໄປ ແຂວງ ຊຽງຂວາງ', 'เอกอัครราชทูต ได้ เดินทาง ไป แขวง เชียงขวาง'],
  ['the house is small', 'ngôi nhà nhỏ'],
  ['good morning , teacher', 'chào buổi sáng , thầy'],
  ['ປະຈຳ ແຂວງ ປະຈຳ', 'ประจำ จังหวัด'],
  ['Xin "quoted" text', 'tab\tinside'],
];

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function diagonalLinks(src: string, tgt: string, oneBased: boolean): [number, number][] {
  const ns = src.split(/\s+/).length,
    nt = tgt.split(/\s+/).length;
  return Array.from({ length: Math.min(ns, nt) }, (_, i) => [i + (oneBased ? 1 : 0), i + (oneBased ? 1 : 0)]);
}

function valid(r: () => number, format: Format, pairs: [string, string][]): Omit<FuzzCase, 'seed' | 'mutation'> {
  const text = (s: string) => Buffer.from(s, 'utf8');
  const clean = pairs.map(([s, t]) => [s.replace(/[\t\n"]/g, ' ').trim(), t.replace(/[\t\n"]/g, ' ').trim()] as [string, string]);
  switch (format) {
    case 'tsv':
      return { format, files: [text(clean.map(([s, t]) => `${s}\t${t}\n`).join(''))], pairs: clean.length, rows: clean };
    case 'csv': {
      const header = r() < 0.5;
      return {
        format,
        header,
        files: [text((header ? 'src,tgt\n' : '') + pairs.map(([s, t]) => `${csvField(s)},${csvField(t)}\n`).join(''))],
        pairs: pairs.length,
        rows: pairs,
      };
    }
    case 'moses': {
      const withLinks = r() < 0.5;
      const oneBased = r() < 0.5;
      const talp = r() < 0.3;
      const links = withLinks
        ? {
            format: talp ? ('talp' as const) : ('pharaoh' as const),
            content: text(
              talp
                ? clean.flatMap(([s, t], k) => diagonalLinks(s, t, true).map(([i, j]) => `${k + 1} ${i} ${j} S\n`)).join('')
                : clean
                    .map(
                      ([s, t]) =>
                        diagonalLinks(s, t, oneBased)
                          .map(([i, j]) => `${i}-${j}`)
                          .join(' ') + '\n',
                    )
                    .join(''),
            ),
          }
        : undefined;
      return {
        format,
        files: [text(clean.map(([s]) => s + '\n').join('')), text(clean.map(([, t]) => t + '\n').join(''))],
        pairs: clean.length,
        rows: clean,
        ...(links ? { links } : {}),
      };
    }
    case 'fastalign':
      return { format, files: [text(clean.map(([s, t]) => `${s} ||| ${t}\n`).join(''))], pairs: clean.length, rows: clean };
    case 'tmx': {
      const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const tus = clean
        .map(([s, t]) => `<tu><tuv xml:lang="lo"><seg>${esc(s)}</seg></tuv><tuv xml:lang="th"><seg>${esc(t)}</seg></tuv></tu>`)
        .join('\n');
      return {
        format,
        files: [text(`<?xml version="1.0" encoding="UTF-8"?>\n<tmx version="1.4"><header srclang="lo"/><body>\n${tus}\n</body></tmx>\n`)],
        pairs: clean.length,
        rows: clean,
      };
    }
    case 'jsonl':
      return {
        format,
        files: [
          text(
            pairs
              .map(
                ([s, t]) =>
                  JSON.stringify({
                    src: s,
                    tgt: t,
                    ...(r() < 0.5 ? { alignments: [{ origin: 'gold', source: 'fuzz', links: [[0, 0, 'sure', null]] }] } : {}),
                    ...(r() < 0.3 ? { status: 'done' } : {}),
                  }) + '\n',
              )
              .join(''),
          ),
        ],
        pairs: pairs.length,
        rows: pairs,
      };
  }
}

type Mutation = (r: () => number, b: Buffer, format: Format) => Buffer;

const at = (r: () => number, b: Buffer) => Math.floor(r() * (b.length + 1));
const splice = (b: Buffer, i: number, insert: Buffer, remove = 0) => Buffer.concat([b.subarray(0, i), insert, b.subarray(i + remove)]);

const MUTATIONS: Record<string, Mutation> = {
  'byte flips': (r, b) => {
    const out = Buffer.from(b);
    for (let n = 1 + Math.floor(r() * 4); n > 0 && out.length; n--) out[Math.floor(r() * out.length)] ^= 1 << Math.floor(r() * 8);
    return out;
  },
  truncation: (r, b) => b.subarray(0, Math.floor(r() * b.length)),
  'BOM inside': (r, b) => splice(b, at(r, b), Buffer.from([0xef, 0xbb, 0xbf])),
  NUL: (r, b) => splice(b, at(r, b), Buffer.from([0])),
  'invalid UTF-8': (r, b) =>
    splice(b, at(r, b), Buffer.from(pick(r, [[0xc0], [0xff, 0xfe], [0xe0, 0x80], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]]))),
  'huge line': (r, b) => splice(b, at(r, b), Buffer.from('ກ '.repeat(20_000 + Math.floor(r() * 20_000)))),
  'broken quoting': (r, b) => splice(b, at(r, b), Buffer.from(pick(r, ['"', '""', '"a"b"', '\r', '\r\n"']))),
  'ragged columns': (r, b) => splice(b, at(r, b), Buffer.from(pick(r, ['\t', ',', '\textra\tcols', ',,,', ' ||| ']))),
  'entity attack': (_r, b, format) =>
    format !== 'tmx'
      ? b
      : Buffer.from(
          b
            .toString('utf8')
            .replace(
              '<tmx',
              '<!DOCTYPE tmx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY x SYSTEM "file:///etc/passwd">]>\n<tmx',
            )
            .replace('<seg>', '<seg>&c;&x;'),
        ),
  'wrong JSON types': (r, b, format) =>
    format !== 'jsonl'
      ? b
      : Buffer.from(
          b
            .toString('utf8')
            .replace(
              /"src":"[^"]*"/,
              pick(r, [
                '"src":42',
                '"src":null',
                '"src":["a"]',
                '"src":{"text":7}',
                '"src":{"text":"a","tokens":"x"}',
                '"src":{"text":"ab","tokens":[[1,0]]}',
              ]),
            ),
        ),
  'links out of range': (r, b) =>
    Buffer.from(
      b
        .toString('utf8')
        .replace(/(\d+)-(\d+)/, `$1-${100 + Math.floor(r() * 900)}`)
        .replace('[0,0,"sure"', '[0,999,"sure"')
        .replace(/^(\d+) (\d+) (\d+) S/m, '$1 $2 999 S'),
    ),
};

/**
 * Case number `seed`: a valid file of a random format, then one mutation four times in five.
 * A mutation of the links file, or one that left its file as it was (one for another format),
 * keeps the expected pairs.
 */
export function fuzzCase(seed: number): FuzzCase {
  const r = rng(seed);
  const format = pick(r, ['tsv', 'csv', 'moses', 'fastalign', 'tmx', 'jsonl'] as const);
  const pairs = Array.from({ length: 1 + Math.floor(r() * 8) }, () => pick(r, PAIRS));
  const base = valid(r, format, pairs);
  if (r() < 0.2) return { seed, ...base, mutation: 'none' };
  const name = pick(r, Object.keys(MUTATIONS));
  const mutate = MUTATIONS[name];
  const onLinks = base.links && r() < 0.5;
  // a broken links file leaves the pairs' texts as they were
  if (onLinks)
    return { seed, ...base, links: { ...base.links!, content: mutate(r, base.links!.content, format) }, mutation: `${name} (links)` };
  const which = Math.floor(r() * base.files.length);
  const files = base.files.map((f, k) => (k === which ? mutate(r, f, format) : f));
  const same = files[which].equals(base.files[which]);
  return { seed, ...base, files, ...(same ? {} : { pairs: null, rows: null }), mutation: name };
}
