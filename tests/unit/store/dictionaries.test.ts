// Dictionaries attached to a project: the migration that adds their table (a schema-7
// project opens migrated), attaching a file and a composed dictionary through the API,
// detaching, bad input as a clear error, and the Align job using what is attached.
import Database from 'better-sqlite3';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignProject } from '../../../src/main/align/project-align.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { attachedDictionaryTexts } from '../../../src/main/store/dictionaries.ts';
import { MIGRATIONS } from '../../../src/main/store/migrations.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir();

test('a schema-7 project opens migrated with an empty dictionaries table', () => {
  const path = join(dir, 'old.mekong');
  ProjectStore.create(path, { name: 'old', srcLang: 'lo', tgtLang: 'th' }).close();
  const raw = new Database(path);
  raw.exec(
    'DROP TRIGGER pair_words_changed; DROP TRIGGER pair_words_deleted; DROP TABLE pair_words; DROP TABLE pair_words_state; DROP TABLE pair_words_stale; ' +
      'DROP TABLE assignments; DROP TABLE segmentation_offers; DROP TABLE answered_requests; DROP TABLE pair_reviews; DROP INDEX alignments_adjudicated; DROP INDEX alignments_gold_annotator; ALTER TABLE alignments DROP COLUMN adjudicated; ' +
      "CREATE UNIQUE INDEX alignments_gold_annotator ON alignments(annotator) WHERE origin = 'gold'; " +
      'DROP TABLE mine_proposals; DROP TABLE mine_runs; DROP TABLE dictionaries; DROP TABLE pair_scores; DROP INDEX pairs_queue; ALTER TABLE pairs DROP COLUMN excluded; ' +
      'ALTER TABLE imports DROP COLUMN owner; ALTER TABLE training_runs DROP COLUMN owner',
  );
  raw.pragma('user_version = 7');
  raw.close();
  const store = ProjectStore.open(path);
  expect(dbOf(store).pragma('user_version', { simple: true })).toBe(MIGRATIONS.length);
  expect(attachedDictionaryTexts(store)).toEqual([]);
  store.close();
});

test('attach a file and a composed dictionary, list, detach; the Align job uses what is attached', async () => {
  const store = ProjectStore.create(join(dir, 'p.mekong'), { name: 'p', srcLang: 'en', tgtLang: 'de' });
  const corpus = join(dir, 'c.tsv');
  writeFileSync(corpus, 'x y\tp q\n');
  await runImport(store, { file: corpus, format: 'tsv', tokenization: 'pretokenized' });
  const ctx = { ...createContext('browser', 'ann', dir), store };
  const call = async (channel: string, input: unknown) => {
    const r = await dispatch(ctx, channel, input);
    if (!r.ok) throw new Error(r.error.error);
    return r.value as { id: number; name: string; entries: number; source: unknown }[];
  };
  const linksOfLastModel = () => {
    const model = store
      .info()
      .alignments.filter((a) => a.origin === 'model')
      .at(-1)!;
    const links = dbOf(store).prepare('SELECT s, t FROM links WHERE alignment_id = ?').all(model.id) as { s: number; t: number }[];
    return links.map((l) => `${l.s}-${l.t}`).sort();
  };
  await alignProject(store, { method: 'ibm1', sym: 'intersect' });
  const without = linksOfLastModel();

  // x → q and y → p, the crossing alignment the corpus alone cannot decide.
  const file = join(dir, 'x-de.tsv');
  writeFileSync(file, 'x\tq\t1\ny\tp\t1\n');
  expect(await call('dictionaries.attach', { dicts: [`en-de:${file}`], name: 'hand-made' })).toMatchObject([
    { name: 'hand-made', entries: 2, source: { dicts: [`en-de:${file}`] } },
  ]);
  const en = join(dir, 'en-en.csv');
  writeFileSync(en, 'ID,Src,English\n1,x,"to sleep; to rest"\n');
  const de = join(dir, 'de-en.txt');
  writeFileSync(de, 'q sleep\n');
  const list = await call('dictionaries.attach', { dicts: [`xx-en:${en}`, `de-en:${de}`], via: 'en', maxFanout: 3 });
  expect(list.map((d) => [d.name, d.entries, d.source])).toEqual([
    ['hand-made', 2, { dicts: [`en-de:${file}`] }],
    [`xx-en:${en} via en de-en:${de}`, 1, { dicts: [`xx-en:${en}`, `de-en:${de}`], via: 'en', maxFanout: 3 }],
  ]);
  expect(attachedDictionaryTexts(store)[1].text).toBe('x\tq\t0.5\n');

  const message = await alignProject(store, { method: 'ibm1', sym: 'intersect' });
  expect(message).toMatch(/aligned 1 pairs/);
  expect(linksOfLastModel()).toEqual(['0-1', '1-0']);
  expect(without).not.toEqual(['0-1', '1-0']);
  const config = dbOf(store).prepare('SELECT config FROM models ORDER BY id DESC LIMIT 1').get() as { config: string };
  expect(JSON.parse(config.config).dictionaries).toEqual(['hand-made', `xx-en:${en} via en de-en:${de}`]);

  expect(await call('dictionaries.detach', { id: list[0].id })).toHaveLength(1);
  expect(await dispatch(ctx, 'dictionaries.detach', { id: 999 })).toMatchObject({
    ok: false,
    error: { kind: 'input', error: 'no dictionary 999 is attached to this project' },
  });
  expect(await dispatch(ctx, 'dictionaries.attach', { dicts: [file], via: 'en' })).toMatchObject({ ok: false, error: { kind: 'input' } });
  expect(await dispatch(ctx, 'dictionaries.attach', { dicts: [join(dir, 'missing.tsv')] })).toMatchObject({
    ok: false,
    error: { kind: 'input', error: expect.stringMatching(/missing\.tsv: cannot read dictionary \(ENOENT\)/) },
  });
  store.close();
});
