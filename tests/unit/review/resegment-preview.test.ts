// The Re-segment dialog's main side: a word list file read for the project ('wordList.read':
// how many words, which side), the dry run's result listing each changed pair's tokens before
// and after, and the run with the file's words, which then join the project's lists. Through
// the real API dispatch, a real SQLite project and real word list files.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { JobEvent, JobResult } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { dbOf } from '../../../src/main/store/connection.ts';
import { segmentOffsets } from '../../../src/main/text/segment.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { project } from './fixture.ts';

const dir = tempDir('mekong-reseg-preview-');

function jobEnd(ctx: ReturnType<typeof createContext>): Promise<JobEvent> {
  return new Promise((resolve) => {
    const off = ctx.jobs.onEvent((e) => {
      if (e.type === 'job.progress') return;
      off();
      resolve(e);
    });
  });
}

test('a word list file from the app: read, previewed pair by pair, then applied', async () => {
  // Tokens as the default segmentation cuts them: the word list's phrase is more than one of them.
  const { store, ids } = project(dir, [
    ['ຂອບໃຈຫລາຍ', 'ขอบคุณมาก'],
    ['ລາວ', 'ลาว'],
  ]);
  const cut = segmentOffsets('ຂອບໃຈຫລາຍ', 'lo');
  dbOf(store)
    .prepare('UPDATE pairs SET src_tokens = ? WHERE id = ?')
    .run(Buffer.from(cut.buffer, cut.byteOffset, cut.byteLength), ids[0]);
  const defaultCut = store.getPair(ids[0]).srcTokens.map((t) => t.text);
  expect(defaultCut.length).toBeGreaterThan(1);
  const ctx = { ...createContext('browser', 'anna', dir), store };
  const file = join(dir, 'lao-words.txt');
  writeFileSync(file, '# Lao words\nຂອບໃຈຫລາຍ\n\nສະບາຍດີ\n');
  expect(await dispatch(ctx, 'wordList.read', { path: file })).toEqual({
    ok: true,
    value: { words: 2, sides: ['src'], file: 'lao-words.txt' },
  });
  const bad = join(dir, 'glossed.txt');
  writeFileSync(bad, 'ສະບາຍດີ\thello\n');
  expect(await dispatch(ctx, 'wordList.read', { path: bad })).toMatchObject({
    ok: false,
    error: { kind: 'input', error: expect.stringMatching(/glossed\.txt:1: .*a tab/) },
  });

  const dry = jobEnd(ctx);
  expect(await dispatch(ctx, 'resegment.start', { side: 'src', dryRun: true, wordLists: [{ path: file }] })).toMatchObject({ ok: true });
  const end = await dry;
  expect(end).toMatchObject({ type: 'job.done', kind: 'resegment' });
  const result = (end as { result?: JobResult }).result!;
  if (result.kind !== 'resegment') throw new Error(`a ${result.kind} result`);
  expect(result.changed).toBe(1);
  const [change] = result.changes;
  expect(change.pairId).toBe(ids[0]);
  const words = (s: { text: string }, offsets: number[]) =>
    Array.from({ length: offsets.length / 2 }, (_, k) => s.text.slice(offsets[2 * k], offsets[2 * k + 1]));
  expect(change.sides.map((s) => [s.side, words(s, s.before), words(s, s.after)])).toEqual([['src', defaultCut, ['ຂອບໃຈຫລາຍ']]]);
  // A dry run keeps neither the tokens nor the words.
  expect(store.getPair(ids[0]).srcTokens).toHaveLength(defaultCut.length);
  const listed = () => dbOf(store).prepare('SELECT word FROM word_list WHERE lang = ?').pluck().all('lo');
  expect(listed()).toEqual([]);

  const run = jobEnd(ctx);
  await dispatch(ctx, 'resegment.start', { side: 'src', wordLists: [{ path: file }] });
  expect(await run).toMatchObject({ type: 'job.done', message: expect.stringMatching(/1 changed.*2 new words/) });
  expect(store.getPair(ids[0]).srcTokens.map((t) => t.text)).toEqual(['ຂອບໃຈຫລາຍ']);
  expect(listed()).toEqual(expect.arrayContaining(['ຂອບໃຈຫລາຍ', 'ສະບາຍດີ']));
  store.close();
});
