// Imports that read no pair, and header rows nobody declared: an empty file is refused with
// one line naming it; a first row of header words ("vi,en", "Lao,Thai", "source,target") is
// skipped when no header option is given and the summary says so; said to be a pair, it is
// imported as one. Real files into real project files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { looksLikeHeader } from '../../../src/main/corpus/delimited.ts';
import { InputError } from '../../../src/main/errors.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();
let n = 0;
const fresh = (src = 'vi', tgt = 'en') => ProjectStore.create(join(dir, `p${n++}.mekong`), { name: 't', srcLang: src, tgtLang: tgt });

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

const PAIRS = 'Tôi ăn cơm,I eat rice\nXin chào,Hello\n';

async function refusal(p: Promise<unknown>): Promise<InputError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(InputError);
  return err as InputError;
}

describe('an import that reads no pair is refused', () => {
  test.each([
    ['csv', 'empty.csv', ''],
    ['tsv', 'blank.tsv', '\n\n'],
    ['jsonl', 'empty.jsonl', ''],
    ['moses', 'empty.vi', ''],
  ] as const)('%s: %s', async (format, name, text) => {
    const store = fresh();
    const file = write(name, text);
    const tgtFile = format === 'moses' ? write('empty.en', text) : undefined;
    const err = await refusal(runImport(store, { file, tgtFile, format, tokenization: 'segment' }));
    expect(err.file).toBe(file);
    expect(err.message.split('\n')).toHaveLength(1);
    expect(err.reason).toBe(text === '' ? 'the file is empty: there is nothing to import' : 'the file holds no sentence pairs');
    expect(store.info().pairs).toBe(0);
    store.close();
  });

  test('a file with a header row alone', async () => {
    const store = fresh();
    const file = write('only-header.csv', 'vi,en\n');
    const err = await refusal(runImport(store, { file, format: 'csv', tokenization: 'segment' }));
    expect(err.message).toBe(`${file}: the file holds a header row and no sentence pairs`);
    store.close();
  });
});

describe('a header row nobody declared', () => {
  test.each([
    ['vi,en', 'vi', 'en'],
    ['VI,EN', 'vi', 'en'],
    ['Vietnamese,English', 'vi', 'en'],
    ['Tiếng Việt,English', 'vi', 'en'],
    ['source,target', 'vi', 'en'],
    ['src,tgt', 'vi', 'en'],
    ['lo,th', 'lo', 'th'],
    ['Lao,Thai', 'lo', 'th'],
  ])('%s is skipped, and the summary says so', async (header, src, tgt) => {
    const store = fresh(src, tgt);
    const body = src === 'vi' ? PAIRS : 'ສະບາຍດີ,สวัสดี\nຂອບໃຈ,ขอบคุณ\n';
    const file = write(`h${n}.csv`, `${header}\n${body}`);
    const summary = await runImport(store, { file, format: 'csv', tokenization: 'segment', anyScript: true });
    const cells = header.split(',');
    expect(summary).toBe(
      `imported 2 pairs from ${file}; line 1 ("${cells[0]}", "${cells[1]}") looked like a header and was skipped; import with --no-header to keep it as a pair`,
    );
    expect(store.listPairs({}, 0, 10).pairs.map((p) => p.src)).toEqual(
      body
        .trim()
        .split('\n')
        .map((l) => l.split(',')[0]),
    );
    store.close();
  });

  test('the import dialog is told which field to change', async () => {
    const store = fresh();
    const file = write('dialog.tsv', `vi\ten\n${PAIRS.replaceAll(',', '\t')}`);
    expect(await runImport(store, { file, format: 'tsv', tokenization: 'segment' }, { surface: 'app' })).toMatch(
      /looked like a header and was skipped; set "First line" to "a sentence pair" to keep it as a pair$/,
    );
    store.close();
  });

  test('header: false keeps the row as a pair; a file of sentences loses no row', async () => {
    const asPair = fresh();
    const file = write('declared.csv', `vi,en\n${PAIRS}`);
    expect(await runImport(asPair, { file, format: 'csv', tokenization: 'segment', header: false, anyScript: true })).toBe(
      `imported 3 pairs from ${file}`,
    );
    expect(asPair.listPairs({}, 0, 1).pairs[0].src).toBe('vi');
    asPair.close();
    const plain = fresh();
    const sentences = write('plain.csv', PAIRS);
    expect(await runImport(plain, { file: sentences, format: 'csv', tokenization: 'segment' })).toBe(`imported 2 pairs from ${sentences}`);
    plain.close();
  });

  test('both chosen cells must be header words', () => {
    expect(looksLikeHeader(['vi', 'en'], ['vi', 'en'])).toBe(true);
    expect(looksLikeHeader(['Text', 'Translation'], [])).toBe(true);
    expect(looksLikeHeader(['vi', 'Hello'], ['vi', 'en'])).toBe(false);
    expect(looksLikeHeader(['Xin chào', 'Hello'], ['vi', 'en'])).toBe(false);
    expect(looksLikeHeader(['th', 'lo'], ['vi', 'en'])).toBe(false);
  });
});

describe('the wrong-script refusal names the option of whoever asked', () => {
  test('CLI flag by default, the dialog checkbox from the app', async () => {
    const store = fresh('lo', 'th');
    const file = write('vi-en.csv', PAIRS);
    const cli = await refusal(runImport(store, { file, format: 'csv', tokenization: 'segment' }));
    expect(cli.reason).toMatch(/\(or import with --any-script\)$/);
    const app = await refusal(runImport(store, { file, format: 'csv', tokenization: 'segment' }, { surface: 'app' }));
    expect(app.reason).toMatch(/\(or tick "Import even if the text's script does not match the project's languages"\)$/);
    expect(app.reason).not.toContain('--any-script');
    store.close();
  });
});
