// `mekong align --method simalign-*|awesome|pmi-align --encoder DIR` end to end on tiny folders
// built by the test, with the same output contract as the other methods; the bad folders of
// issue 17 item 6 and misplaced options each a one-line error, no crash.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, truncateSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { tempDir } from '../../helpers/temp-dir.ts';
import { samplePairs, writeTinyBert, writeTinyXlmr } from './tiny-encoders.ts';
import { ENCODER_ALIGN_METHODS } from '../../../../src/shared/methods.ts';
import { exportEncoderOnnx, HfEncoder } from '../../../../src/main/models/transformer/hf-encoder.ts';

const dir = tempDir();
const { src, tgt } = samplePairs(12);
const S = join(dir, 'lo.txt'),
  T = join(dir, 'th.txt');
writeFileSync(S, src.map((s) => s.join(' ') + '\n').join(''));
writeFileSync(T, tgt.map((s) => s.join(' ') + '\n').join(''));
const bert = join(dir, 'bert');
writeTinyBert(bert, { layers: 3 });
const xlmr = join(dir, 'xlmr');
writeTinyXlmr(xlmr);

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/** Parses Pharaoh lines (i-j or i-j:p) and checks every index against the sentence lengths. */
function readLinks(file: string): { s: number; t: number; p: number | null }[][] {
  const lines = readFileSync(file, 'utf8').split('\n').slice(0, -1);
  expect(lines).toHaveLength(src.length);
  return lines.map((line, k) =>
    line
      .split(' ')
      .filter(Boolean)
      .map((x) => {
        const m = /^(\d+)-(\d+)(?::([\d.]+))?$/.exec(x)!;
        expect(m).not.toBeNull();
        const l = { s: Number(m[1]), t: Number(m[2]), p: m[3] === undefined ? null : Number(m[3]) };
        expect(l.s).toBeLessThan(src[k].length);
        expect(l.t).toBeLessThan(tgt[k].length);
        return l;
      }),
  );
}

test.each(ENCODER_ALIGN_METHODS)('%s: links and --scores for every pair, on the device asked for or the CPU', (method) => {
  const out = join(dir, `${method}.txt`);
  const r = mekong(
    'align',
    '--src',
    S,
    '--tgt',
    T,
    '--out',
    out,
    '--scores',
    out + '.p',
    '--method',
    method,
    '--encoder',
    bert,
    '--device',
    'cuda',
  );
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/nn: execution provider cpu \(requested cuda; unavailable: cuda: /);
  expect(r.out).toContain(`encoder: ${bert} (bert, 3 layers, model.safetensors), hidden state 2`);
  const links = readLinks(out);
  const scored = readLinks(out + '.p');
  expect(scored.map((ls) => ls.map((l) => `${l.s}-${l.t}`))).toEqual(links.map((ls) => ls.map((l) => `${l.s}-${l.t}`)));
  for (const l of scored.flat()) expect(l.p! >= 0 && l.p! <= 1).toBe(true);
  expect(links.flat().length).toBeGreaterThan(src.length);
  if (method === 'simalign-match') {
    // one-to-one over the words that got subwords within the model's 64 positions
    const enc = HfEncoder.open(bert);
    const covered = (e: { start: Int32Array; end: Int32Array }) => e.start.filter((a, k) => e.end[k] > a).length;
    const [es, et] = [enc.encode(src), enc.encode(tgt)];
    links.forEach((ls, k) => expect(ls).toHaveLength(Math.min(covered(es[k]), covered(et[k]))));
  }
});

test('--layer 0 … L reads that hidden state (alignments differ), the XLM-R folder too; a layer past L is a one-line error', () => {
  const at = (layer: string, folder = bert) => {
    const out = join(dir, `layer${layer}.txt`);
    const r = mekong('align', '--src', S, '--tgt', T, '--out', out, '--method', 'simalign-argmax', '--encoder', folder, '--layer', layer);
    expect(r.code, r.err).toBe(0);
    return readFileSync(out, 'utf8');
  };
  expect(at('0')).not.toBe(at('3'));
  at('1', xlmr);
  const bad = mekong('align', '--src', S, '--tgt', T, '--out', join(dir, 'x'), '--method', 'awesome', '--encoder', bert, '--layer', '4');
  expect(bad.code).not.toBe(0);
  expect(bad.err.trim().split('\n')).toHaveLength(1);
  expect(bad.err).toMatch(/layer 4 does not exist: .* has hidden states 0 \(embeddings\) to 3/);
});

test('the same folder from model.onnx aligns the same through the CLI', () => {
  const onnx = join(dir, 'bert-onnx');
  writeTinyBert(onnx, { layers: 3 });
  exportEncoderOnnx(onnx);
  rmSync(join(onnx, 'model.safetensors'));
  const a = join(dir, 'st.txt'),
    b = join(dir, 'onnx.txt');
  for (const [folder, out] of [
    [bert, a],
    [onnx, b],
  ])
    expect(mekong('align', '--src', S, '--tgt', T, '--out', out, '--method', 'simalign-itermax', '--encoder', folder).code).toBe(0);
  expect(readFileSync(b, 'utf8')).toBe(readFileSync(a, 'utf8'));
});

test('options of other families are refused in one line, and --encoder is asked for', () => {
  const run = (...more: string[]) => mekong('align', '--src', S, '--tgt', T, '--out', join(dir, 'o.txt'), ...more);
  expect(run('--method', 'awesome').err).toMatch(/awesome needs --encoder DIR/);
  expect(run('--method', 'simalign-argmax', '--encoder', bert, '--epochs', '3').err).toMatch(/--epochs is not read by simalign-argmax/);
  expect(run('--method', 'awesome', '--encoder', bert, '--dict', join(dir, 'd.tsv')).err).toMatch(/--dict is not read by awesome/);
  expect(run('--method', 'simalign-argmax', '--encoder', bert, '--threshold', '0.1').err).toMatch(/--threshold is read by awesome only/);
  expect(run('--method', 'ibm1', '--encoder', bert).err).toMatch(/--encoder is for the encoder methods \(simalign-argmax, /);
  expect(run('--method', 'awesome', '--encoder', bert, '--layer', 'x').err).toMatch(/--layer must be a whole number/);
  const lex = mekong('lexicon', '--src', S, '--tgt', T, '--out', join(dir, 'l.tsv'), '--method', 'awesome');
  expect(lex.err).toMatch(/awesome does not learn a lexicon/);
});

// ---- issue 17 item 6: bad folders ----

/** Rewrites fields of a folder's config.json. */
function patchConfig(d: string, fields: Record<string, unknown>): void {
  const c = JSON.parse(readFileSync(join(d, 'config.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(join(d, 'config.json'), JSON.stringify({ ...c, ...fields }));
}

function badFolder(name: string, make: (d: string) => void): string {
  const d = join(dir, name);
  writeTinyBert(d);
  make(d);
  return d;
}

test.each([
  [
    'a tokenizer whose vocabulary exceeds the embedding rows',
    (d: string) => writeTinyBert(d, { vocabRows: 100 }),
    /tokenizer\.json: token id \d+ is beyond the 100 rows of embeddings\.word_embeddings\.weight/,
  ],
  [
    'a truncated safetensors file',
    (d: string) => truncateSync(join(d, 'model.safetensors'), Math.floor(statSync(join(d, 'model.safetensors')).size / 2)),
    /model\.safetensors: tensor .* ends at byte \d+ but the file has \d+ bytes: truncated\?/,
  ],
  [
    'a safetensors file cut inside its header',
    (d: string) => truncateSync(join(d, 'model.safetensors'), 100),
    /model\.safetensors: header length \d+ exceeds the file \(100 bytes\): truncated\?/,
  ],
  [
    'a config with an unknown activation',
    (d: string) => patchConfig(d, { hidden_act: 'swish' }),
    /config\.json: hidden_act "swish" is not supported \(gelu, relu\)/,
  ],
  [
    'relative positions',
    (d: string) => patchConfig(d, { position_embedding_type: 'relative_key' }),
    /config\.json: position_embedding_type "relative_key" is not supported/,
  ],
  ['another architecture', (d: string) => patchConfig(d, { model_type: 'gpt2' }), /config\.json: model_type "gpt2" is not supported/],
  [
    'a weight of the wrong shape',
    (d: string) => patchConfig(d, { intermediate_size: 48 }),
    /model\.safetensors: tensor encoder\.layer\.0\.intermediate\.dense\.weight has shape \[64, 32\] but config\.json implies \[48, 32\]/,
  ],
  ['a missing tokenizer.json', (d: string) => rmSync(join(d, 'tokenizer.json')), /tokenizer\.json: missing/],
  ['a missing model', (d: string) => rmSync(join(d, 'model.safetensors')), /model\.safetensors: missing/],
] as const)('%s: a one-line error naming the file, no crash', (name, make, message) => {
  const folder = badFolder(name.replace(/\W+/g, '-'), make);
  expect(() => HfEncoder.open(folder)).toThrow(message);
  const r = mekong('align', '--src', S, '--tgt', T, '--out', join(dir, 'bad.txt'), '--method', 'simalign-argmax', '--encoder', folder);
  expect(r.code).not.toBe(0);
  expect(r.err.trim().split('\n')).toHaveLength(1);
  expect(r.err).toMatch(message);
});
