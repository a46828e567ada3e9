// The `align` and `eval aer` commands end to end: files in, files and JSON out, and
// one-line errors for bad input.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from 'commander';
import { expect, test } from 'vitest';
import { register as registerAlign } from '../../../src/main/cli/align.ts';
import { register as registerEval } from '../../../src/main/cli/eval.ts';
import { runCommandLine } from '../../../src/main/cli/commands.ts';

const fixtures = join(import.meta.dirname, 'fixtures');
const repo = join(import.meta.dirname, '../../..');

async function mekong(...args: string[]): Promise<string> {
  const program = new Command('mekong').exitOverride();
  registerAlign(program);
  registerEval(program);
  const out: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((s: string) => out.push(s) > 0) as typeof process.stdout.write;
  try {
    await program.parseAsync(['node', 'mekong', ...args]);
  } finally {
    process.stdout.write = write;
  }
  return out.join('');
}

test('align writes Pharaoh links and scores, then eval aer scores them', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-cli-'));
  const [out, scores, model] = [join(dir, 'o.txt'), join(dir, 's.txt'), join(dir, 'model')];
  await mekong(
    'align',
    '--src',
    join(fixtures, 'tiny.de'),
    '--tgt',
    join(fixtures, 'tiny.en'),
    '--out',
    out,
    '--scores',
    scores,
    '--save-model',
    model,
    '--method',
    'hmm',
    '--sym',
    'intersect',
    '--lowercase',
  );
  const lines = readFileSync(out, 'utf8').split('\n');
  expect(lines).toHaveLength(7); // 6 pairs + final newline
  expect(lines[0]).toBe('0-0 1-1 2-2 3-3');
  expect(lines[4]).toBe(''); // empty source side
  const scored = readFileSync(scores, 'utf8').split('\n')[0].split(' ');
  expect(scored.map((x) => x.split(':')[0]).join(' ')).toBe(lines[0]);
  for (const x of scored) expect(Number(x.split(':')[1])).toBeGreaterThan(0.3);

  const gold = join(dir, 'gold.txt');
  writeFileSync(gold, '1-1 2-2 3-3 4-4\n1-1 2-2 3-3 4p4\n1-1 2-2\n1-1 2-2\n\n1-1 2-2 3-3 4-4\n');
  const json = JSON.parse(await mekong('eval', 'aer', '--gold', gold, '--pred', out, '--gold-one-based', '--json'));
  expect(await mekong('eval', 'aer', '--gold', gold, '--pred', out, '--gold-one-based')).toMatch(
    /^AER \d+\.\d% {2}precision \d+\.\d% {2}recall \d+\.\d% {2}F1 \d+\.\d% {2}over \d+ pairs\n$/,
  );
  expect(json).toEqual({ precision: 1, recall: 1, f1: 1, aer: 0, pairs: 6 });

  const again = join(dir, 'again.txt');
  await mekong(
    'align',
    '--src',
    join(fixtures, 'tiny.de'),
    '--tgt',
    join(fixtures, 'tiny.en'),
    '--out',
    again,
    '--model',
    model,
    '--sym',
    'intersect',
  );
  expect(readFileSync(again, 'utf8').split('\n')[0]).toBe('0-0 1-1 2-2 3-3');
});

test('line counts that differ are a clear error naming the files', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-cli-'));
  const short = join(dir, 'short.en');
  writeFileSync(short, 'the house\n');
  await expect(mekong('align', '--src', join(fixtures, 'tiny.de'), '--tgt', short, '--out', join(dir, 'o'))).rejects.toThrow(
    `${short}:2: has 1 lines but ${join(fixtures, 'tiny.de')} has 6; line counts must match`,
  );
  const pred = join(dir, 'pred.txt');
  writeFileSync(pred, '0-0\n');
  await expect(mekong('eval', 'aer', '--gold', short, '--pred', pred)).rejects.toThrow(/bad link "[^"]+": expected i-j, i\?j or ipj/);
});

test('the installed command prints user errors as one line and exits 1', () => {
  const r = spawnSync(
    'node',
    [join(repo, 'bin/mekong.js'), 'eval', 'aer', '--gold', join(fixtures, 'tiny.en'), '--pred', join(fixtures, 'tiny.en')],
    { encoding: 'utf8' },
  );
  expect(r.status).toBe(1);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).toContain('tiny.en:1: bad link "the": expected i-j, i?j or ipj');
});

test('--dict is a prior of the statistical aligner; --dict-use is for the neural methods and needs --dict', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-cli-'));
  const dict = join(dir, 'dict.txt');
  writeFileSync(dict, 'haus\thouse\n');
  const args = ['align', '--src', join(fixtures, 'tiny.de'), '--tgt', join(fixtures, 'tiny.en'), '--out', join(dir, 'o')];
  await mekong(...args, '--dict', dict);
  expect(readFileSync(join(dir, 'o'), 'utf8').split('\n')).toHaveLength(7);
  await expect(mekong(...args, '--dict', dict, '--dict-use', 'prior')).rejects.toThrow(
    '--dict-use is for the neural methods (bilstm-ctl, bilstm)',
  );
  await expect(mekong(...args, '--method', 'bilstm-ctl', '--dict-use', 'prior')).rejects.toThrow(
    '--dict-use says how to use the dictionary of --dict: give --dict too',
  );
  await expect(mekong(...args, '--method', 'bilstm-ctl', '--dict', dict, '--dict-use', 'nope')).rejects.toThrow(
    /Allowed choices are prior, supervision, both/,
  );
});

test('--src-lang/--tgt-lang add the shipped dictionaries of the two languages, which --no-default-dicts leaves out', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'mekong-cli-'));
  // Lao–English pairs of the MOPT dictionary's words, so that its entries change the links.
  const lo = ['ແມວ ກິນ ປາ', 'ໝາ ກິນ ເຂົ້າ', 'ແມວ ນອນ', 'ປາ ລອຍ ນ້ຳ', 'ໝາ ນອນ ເຮືອນ', 'ເຂົ້າ ແລະ ປາ'];
  const en = ['the cat eats fish', 'a dog eats rice', 'the cat sleeps', 'fish swim in water', 'the dog sleeps at home', 'rice and fish'];
  writeFileSync(join(dir, 'lo'), lo.join('\n') + '\n');
  writeFileSync(join(dir, 'en'), en.join('\n') + '\n');
  // in this process, as `mekong` runs a command line (cli/commands.ts), with stderr kept
  const run = async (out: string, ...more: string[]) => {
    const err: string[] = [];
    const write = process.stderr.write;
    process.stderr.write = ((s: string) => err.push(s) > 0) as typeof process.stderr.write;
    try {
      const argv = ['node', 'mekong', 'align', '--src', join(dir, 'lo'), '--tgt', join(dir, 'en'), '--out', join(dir, out), ...more];
      const status = (await runCommandLine(argv, (line) => err.push(line))) ?? 0;
      return { status, stderr: err.join('') };
    } finally {
      process.stderr.write = write;
    }
  };
  const read = (out: string) => readFileSync(join(dir, out), 'utf8');

  const shipped = await run('shipped', '--src-lang', 'lao', '--tgt-lang', 'en');
  expect(shipped.status).toBe(0);
  expect(shipped.stderr).toBe('dictionaries: shipped for lao–en: Lao–English (MOPT, MIT) (--no-default-dicts leaves them out)\n');
  expect((await run('given', '--dict', 'lo-en:bundled')).status).toBe(0);
  expect(read('shipped')).toBe(read('given'));

  expect((await run('plain')).stderr).toBe('');
  const off = await run('off', '--src-lang', 'lo', '--tgt-lang', 'en', '--no-default-dicts');
  expect(off.stderr).toBe('');
  expect(read('off')).toBe(read('plain'));
  expect(read('plain')).not.toBe(read('given'));

  expect((await run('th', '--src-lang', 'lo', '--tgt-lang', 'th')).stderr).toBe(
    'dictionaries: none (no dictionary that ships with Mekong connects lo and th)\n',
  );
  expect((await run('x', '--src-lang', 'lo')).stderr).toBe(
    'mekong: --src-lang and --tgt-lang go together: give the languages of both sides\n',
  );
  expect((await run('x', '--method', 'awesome', '--src-lang', 'lo', '--tgt-lang', 'en')).stderr).toBe(
    'mekong: --src-lang is not read by awesome, which aligns with a pretrained encoder without training\n',
  );
});
