// Learning words at import (issue 43 item 10): on by default for Lao and Thai sides (a recurring
// name comes out whole without --learn-words), off with --no-learn-words, off by default for
// Chinese; and a re-segment with --learn-words on a Thai–English project learns a name from
// the English side that the Thai side alone does not keep whole.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { learnAfterImport, resegmentProject } from '../../../src/main/review/resegment-project.ts';
import { nextPairId } from '../../../src/main/store/pairs.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

function mekong(...args: string[]) {
  const r = spawnSync(process.execPath, ['bin/mekong.js', ...args], { encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function srcTokens(project: string): string[][] {
  const store = ProjectStore.open(project);
  try {
    return store.listPairs({}, 0, 100).pairs.map((p) => p.srcTokens.map((t) => t.text));
  } finally {
    store.close();
  }
}

const LAO_THAI = [
  'ເຢໂຫວາເປັນພະເຈົ້າ\tพระยะโฮวาเป็นพระเจ้า',
  'ພວກເຮົານະມັດສະການເຢໂຫວາ\tเรานมัสการพระยะโฮวา',
  'ເຢໂຫວາຮັກພວກເຮົາ\tพระยะโฮวารักเรา',
  'ຄຳພີໄບເບິນບອກວ່າເຢໂຫວາຊົງຮັກ\tคัมภีร์ไบเบิลบอกว่าพระยะโฮวาทรงรัก',
].join('\n');

test('a Lao–Thai import learns recurring names by default; --no-learn-words keeps the first cut', () => {
  const corpus = join(dir, 'lo-th.tsv');
  writeFileSync(corpus, LAO_THAI);
  const [on, off] = [join(dir, 'on.mekong'), join(dir, 'off.mekong')];
  for (const project of [on, off]) expect(mekong('project', 'create', project, '--src-lang', 'lo', '--tgt-lang', 'th').code).toBe(0);
  const learned = mekong('import', on, corpus);
  expect(learned.code).toBe(0);
  expect(learned.out).toMatch(/learned \d+ lo words from the corpus/);
  expect(srcTokens(on)[2][0]).toBe('ເຢໂຫວາ');
  const kept = mekong('import', off, corpus, '--no-learn-words');
  expect(kept.code).toBe(0);
  expect(kept.out).not.toMatch(/learned/);
  expect(srcTokens(off)[2].slice(0, 2)).toEqual(['ເຢໂຫ', 'ວາ']);
});

test('a Chinese import learns no words unless asked', async () => {
  const store = ProjectStore.create(join(dir, 'zh.mekong'), { name: 'zh', srcLang: 'zh', tgtLang: 'en' });
  const corpus = join(dir, 'zh-en.tsv');
  writeFileSync(corpus, ['她很高。\tShe is very tall.', '她很忙。\tShe is very busy.', '她很累。\tShe is very tired.'].join('\n'));
  const segmentedFrom = nextPairId(store);
  await runImport(store, { file: corpus, format: 'tsv', tokenization: 'segment' });
  expect(await learnAfterImport(store, { segmentedFrom, annotator: 'anna' })).toBeNull();
  const asked = await learnAfterImport(store, { learnWords: true, segmentedFrom, annotator: 'anna' });
  expect(asked?.learned.map((l) => l.lang)).toEqual(['zh']);
  store.close();
});

test('a re-segment learning words takes the English side as the parallel side', async () => {
  const store = ProjectStore.create(join(dir, 'th-en.mekong'), { name: 'th', srcLang: 'th', tgtLang: 'en' });
  const corpus = join(dir, 'th-en.tsv');
  writeFileSync(
    corpus,
    [
      'โยเซฟไปตลาด\tJoseph went to the market',
      'โยเซฟกินข้าว\tJoseph ate rice',
      'ฉันเห็นโยเซฟ\tI saw Joseph',
      'โยเซฟรักแม่\tJoseph loves his mother',
      'โยชูวาไปตลาด\tJoshua went to the market',
      'โยนาห์กินข้าว\tJonah ate rice',
      'โยอาบนอน\tJoab sleeps',
    ].join('\n'),
  );
  await runImport(store, { file: corpus, format: 'tsv', tokenization: 'segment' });
  const report = await resegmentProject(store, { sides: ['src', 'tgt'], annotator: 'anna', learnWords: true });
  expect(report.learned).toEqual([{ lang: 'th', words: [{ word: 'โยเซฟ', count: 4, pieces: 2, aligned: 'joseph' }] }]);
  expect(store.listPairs({}, 0, 10).pairs[2].srcTokens.map((t) => t.text)).toEqual(['ฉัน', 'เห็น', 'โยเซฟ']);
  store.close();
});
