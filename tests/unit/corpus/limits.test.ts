// Limits instead of unbounded work: a device or a pipe is refused at once (/dev/zero would
// never end), a line over the limit fails with its file and line, a file over the size limit
// is refused before it is read; the project is left as it was.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-limits-');
let n = 0;
const fresh = () => ProjectStore.create(join(dir, `l${n++}.mekong`), { name: 'l', srcLang: 'en', tgtLang: 'vi' });
const put = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

describe('import limits', () => {
  test('/dev/zero as the corpus, as a Moses target and as a links file: refused at once', async () => {
    const store = fresh();
    const ok = put('ok.en', 'a b\n');
    await expect(runImport(store, { file: '/dev/zero', format: 'tsv', tokenization: 'pretokenized' })).rejects.toThrow(
      '/dev/zero: not a regular file (a pipe or a device): save it to a file first',
    );
    await expect(runImport(store, { file: ok, tgtFile: '/dev/zero', format: 'moses', tokenization: 'pretokenized' })).rejects.toThrow(
      '/dev/zero: not a regular file',
    );
    await expect(
      runImport(store, {
        file: ok,
        tgtFile: put('ok.vi', 'c d\n'),
        format: 'moses',
        tokenization: 'pretokenized',
        linksFile: '/dev/zero',
        linksFormat: 'pharaoh',
      }),
    ).rejects.toThrow('/dev/zero: not a regular file');
    expect(store.info().pairs).toBe(0);
    store.close();
  }, 30_000);

  test.skipIf(process.platform === 'win32')('a FIFO is refused instead of blocking forever', async () => {
    const store = fresh();
    const fifo = join(dir, 'pipe.tsv');
    execFileSync('mkfifo', [fifo]);
    await expect(runImport(store, { file: fifo, format: 'tsv', tokenization: 'pretokenized' })).rejects.toThrow(
      `${fifo}: not a regular file`,
    );
    // A links file whose format is detected is opened before any reader runs: refused there too.
    const en = put('fifo.en', 'a b\n');
    const vi = put('fifo.vi', 'c d\n');
    await expect(
      runImport(store, { file: en, tgtFile: vi, format: 'moses', tokenization: 'pretokenized', linksFile: fifo }),
    ).rejects.toThrow(`${fifo}: not a regular file`);
    store.close();
  });

  test('a line over the limit names its line; a file over the limit is refused; a folder is named', async () => {
    const store = fresh();
    const long = put('long.tsv', `a\tb\n${'x'.repeat(5000)}\ty\nc\td\n`);
    await expect(runImport(store, { file: long, format: 'tsv', tokenization: 'pretokenized', maxLineBytes: 2048 })).rejects.toThrow(
      `${long}:2: a line longer than 2048 bytes, the longest an import accepts (--max-line-bytes)`,
    );
    await expect(runImport(store, { file: long, format: 'tsv', tokenization: 'pretokenized', maxFileBytes: 4096 })).rejects.toThrow(
      /long\.tsv: 5\d{3} bytes, more than the 4096 an import accepts/,
    );
    await expect(runImport(store, { file: dir, format: 'tsv', tokenization: 'pretokenized' })).rejects.toThrow(
      `${dir}: is a folder, not a file`,
    );
    // TMX has no lines to count: a segment over the limit is refused at its <tu>, however the XML is laid out.
    const tmx = put(
      'long.tmx',
      `<tmx version="1.4"><header srclang="en"/><body>\n<tu><tuv xml:lang="en"><seg>a</seg></tuv><tuv xml:lang="vi"><seg>b</seg></tuv></tu>\n` +
        `<tu><tuv xml:lang="en"><seg>${'word '.repeat(600)}</seg></tuv><tuv xml:lang="vi"><seg>từ</seg></tuv></tu></body></tmx>`,
    );
    await expect(runImport(store, { file: tmx, format: 'tmx', tokenization: 'pretokenized', maxLineBytes: 2048 })).rejects.toThrow(
      `${tmx}:3: a <seg> longer than 2048 characters, the longest an import accepts (--max-line-bytes)`,
    );
    expect(store.info().pairs).toBe(0);
    // A long line without a newline anywhere (a whole document) within the default limit imports.
    const doc = put('doc.tsv', `${'word '.repeat(200_000)}\t${'từ '.repeat(200_000)}`);
    await runImport(store, { file: doc, format: 'tsv', tokenization: 'pretokenized' });
    expect(store.info().pairs).toBe(1);
    store.close();
  }, 60_000);
});
