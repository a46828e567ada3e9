// The import and export pipelines on real files into real project files: segmentation,
// links files, all-or-nothing failure and cancel, filters, and the JSONL round trip.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { runExport } from '../../../src/main/corpus/export-pipeline.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { goldAlignmentOf, linkInserter, createAlignment } from '../../../src/main/store/alignments.ts';
import { CancelledError } from '../../../src/main/errors.ts';
import { editorPair, setGold, setRejected } from '../../../src/main/review/editor.ts';
import { setAdjudicated } from '../../../src/main/review/adjudication.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const dir = tempDir();
let n = 0;
const fresh = (src = 'lo', tgt = 'th') => ProjectStore.create(join(dir, `p${n++}.mekong`), { name: 't', srcLang: src, tgtLang: tgt });
const sampleOptions = sampleImport();

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('import', () => {
  test('the Lao–Thai sample, segmented: 265 pairs, tokens slicing the normalised text', async () => {
    const store = fresh();
    expect(await runImport(store, sampleOptions)).toMatch(/imported 265 pairs/);
    const { total, pairs } = store.listPairs({}, 0, 5);
    expect(total).toBe(265);
    for (const p of pairs) {
      expect(p.srcTokens.length).toBeGreaterThan(5);
      for (const t of [...p.srcTokens, ...p.tgtTokens])
        expect(t.text).toBe((p.srcTokens.includes(t) ? p.src : p.tgt).slice(t.start, t.end));
    }
    expect(pairs[0].tgtTokens.map((t) => t.text)).toContain('เอกอัครราชทูต');
    store.close();
  });

  test('Moses files with a 1-based Pharaoh links file become an import alignment', async () => {
    const store = fresh('en', 'vi');
    const src = write('m.en', 'the house\ngood morning\n');
    const tgt = write('m.vi', 'ngôi nhà\nchào buổi sáng\n');
    const links = write('m.links', '1-1 2-2\n1-1 2p2 2-3\n');
    await runImport(store, {
      file: src,
      tgtFile: tgt,
      format: 'moses',
      tokenization: 'pretokenized',
      linksFile: links,
      linksFormat: 'pharaoh',
      linksOneBased: true,
    });
    const info = store.info();
    expect(info.alignments).toEqual([
      {
        id: expect.any(Number),
        origin: 'import',
        name: links,
        annotator: null,
        links: 5,
        runId: null,
        calibration: null,
        adjudicated: false,
        linkCurve: null,
      },
    ]);
    const second = store.getPair(store.listPairs({}, 0, 2).pairs[1].id);
    expect(second.tgtTokens.map((t) => t.text)).toEqual(['chào', 'buổi', 'sáng']);
    expect(second.alignments[0].links).toEqual([
      { s: 0, t: 0, kind: 'sure', score: null },
      { s: 1, t: 1, kind: 'possible', score: null },
      { s: 1, t: 2, kind: 'sure', score: null },
    ]);
    store.close();
  });

  test('a link out of range fails the whole import with file, line and reason', async () => {
    const store = fresh('en', 'vi');
    await runImport(store, {
      file: write('ok.en', 'a b\n'),
      tgtFile: write('ok.vi', 'c d\n'),
      format: 'moses',
      tokenization: 'pretokenized',
    });
    const src = write('r.en', 'one two\nthree four\n');
    const tgt = write('r.vi', 'một hai\nba bốn\n');
    const links = write('r.links', '0-0 1-1\n0-0 1-5\n');
    await expect(
      runImport(store, { file: src, tgtFile: tgt, format: 'moses', tokenization: 'pretokenized', linksFile: links }),
    ).rejects.toThrow(`${links}:2: link 1-5: target index 5 out of range (sentence has 2 tokens)`);
    expect(store.info().pairs).toBe(1);
    expect(store.info().alignments).toEqual([]);
    store.close();
  });

  test('a zero-width JSONL token fails the import with its line, and the project stays usable', async () => {
    const store = fresh('en', 'th');
    const bad = write(
      'zero.jsonl',
      '{"src":"ok","tgt":"ok"}\n{"src":{"text":"abc","tokens":[[0,0]]},"tgt":{"text":"x","tokens":[[0,1]]}}\n',
    );
    await expect(runImport(store, { file: bad, format: 'jsonl', tokenization: 'segment' })).rejects.toThrow(
      `${bad}:2: field src.tokens.0: empty or reversed span [0,0]`,
    );
    expect(store.info().pairs).toBe(0);
    await runExport(store, { file: join(dir, 'after-zero.jsonl'), format: 'jsonl' });
    store.close();
  });

  test('tokens on one side only: that side is kept, the other is segmented', async () => {
    const store = fresh('en', 'th');
    const f = write(
      'one-side.jsonl',
      '{"src":{"text":"good day","tokens":[[0,4],[5,8]]},"tgt":"สวัสดีครับ"}\n{"src":"hello there","tgt":{"text":"ดี ครับ","tokens":[[0,2],[3,7]]}}\n',
    );
    await runImport(store, { file: f, format: 'jsonl', tokenization: 'segment' });
    const [a, b] = store.listPairs({}, 0, 2).pairs;
    expect(a.srcTokens.map((t) => t.text)).toEqual(['good', 'day']);
    expect(a.tgtTokens.map((t) => t.text)).toEqual(['สวัสดี', 'ครับ']);
    expect(b.srcTokens.map((t) => t.text)).toEqual(['hello', 'there']);
    expect(b.tgtTokens.map((t) => t.text)).toEqual(['ดี', 'ครับ']);
    store.close();
  });

  test('a failed import takes the gold alignment of a new annotator it created with it', async () => {
    const store = fresh('en', 'th');
    const good = Array.from(
      { length: 3000 },
      (_, i) =>
        `{"src":{"text":"a${i}","tokens":[[0,${String(i).length + 1}]]},"tgt":{"text":"ข","tokens":[[0,1]]},"alignments":[{"origin":"gold","source":"newcomer","links":[[0,0,"sure",null]]}]}`,
    );
    const f = write('gold-then-bad.jsonl', [...good, '{"src":"a"}'].join('\n') + '\n');
    await expect(runImport(store, { file: f, format: 'jsonl', tokenization: 'segment' })).rejects.toThrow(`${f}:3001: field tgt: missing`);
    expect(store.info().alignments).toEqual([]);
    expect(store.info().pairs).toBe(0);
    await runImport(store, { file: write('gold-ok.jsonl', good.slice(0, 2).join('\n')), format: 'jsonl', tokenization: 'segment' });
    expect(store.info().alignments).toEqual([expect.objectContaining({ origin: 'gold', annotator: 'newcomer', links: 2 })]);
    store.close();
  });

  test("a file in other scripts than the project's languages is refused with why, unless asked", async () => {
    const store = fresh('lo', 'th');
    const viEn = write('vi-en.tsv', 'Xin chào các bạn\tHello friends\nTôi là sinh viên\tI am a student\n');
    await expect(runImport(store, { file: viEn, format: 'tsv', tokenization: 'segment' })).rejects.toThrow(
      `${viEn}: the source side looks like Latin (Vietnamese) script, not Lao (project: lo); the target side looks like Latin (or another) script, not Thai (project: th); check the columns or the project's languages (or import with --any-script)`,
    );
    const swapped = write('th-lo.tsv', 'สวัสดี\tສະບາຍດີ\n');
    await expect(runImport(store, { file: swapped, format: 'tsv', tokenization: 'segment' })).rejects.toThrow(
      /source and target look swapped/,
    );
    expect(store.info().pairs).toBe(0);
    await runImport(store, { file: viEn, format: 'tsv', tokenization: 'segment', anyScript: true });
    expect(store.info().pairs).toBe(2);
    store.close();
  });

  test('cancel mid-import leaves the project as it was', async () => {
    const store = fresh();
    const controller = new AbortController();
    const run = runImport(store, sampleOptions, { signal: controller.signal, progress: () => controller.abort() });
    await expect(run).rejects.toBeInstanceOf(CancelledError);
    expect(store.info().pairs).toBe(0);
    expect((dbOf(store).prepare('SELECT count(*) AS n FROM pairs').get() as { n: number }).n).toBe(0);
    store.close();
  });
});

describe('export', () => {
  test('JSONL export → import → export is byte-identical, with marks, rejections, link tags, adjudicated gold and own statuses', async () => {
    const store = fresh();
    await runImport(store, sampleOptions);
    const ids = store.listPairs({}, 0, 3).pairs.map((p) => p.id);
    store.updatePair('anna', ids[0], { status: 'done', note: 'checked "ambassador" — ok\nline two 🙂' });
    store.updatePair('anna', ids[1], { status: 'flagged', split: 'test' });
    const gold = goldAlignmentOf(store, 'anna');
    const model = createAlignment(store, { origin: 'model', name: 'ibm2 run 1' });
    store.transaction(() => {
      linkInserter(store, gold)(ids[0], [
        { s: 0, t: 0, kind: 'sure', score: null },
        { s: 2, t: 1, kind: 'possible', score: null },
      ]);
      linkInserter(store, model)(ids[0], [
        { s: 0, t: 0, kind: 'sure', score: 0.9731 },
        { s: 1, t: 1, kind: 'sure', score: 0.5 },
      ]);
      linkInserter(store, model)(ids[2], [{ s: 3, t: 2, kind: 'sure', score: 0.125 }]);
    });
    // A word checked and left unaligned, and a rejected model link, must survive the round trip.
    setGold(
      store,
      'anna',
      ids[1],
      [
        { s: 1, t: 1, kind: 'sure', score: null },
        { s: 2, t: 4, kind: 'possible', score: null, tag: 'grammatically inferred' },
      ],
      [
        { side: 'src', index: 0 },
        { side: 'tgt', index: 3 },
      ],
    );
    setRejected(store, 'anna', ids[2], [{ s: 3, t: 2 }]);
    // Blind double annotation: ben's own status of pair 1, and an adjudication of pair 2.
    store.updatePair('ben', ids[0], { status: 'in-review' });
    setAdjudicated(store, 'carl', ids[1], [{ s: 1, t: 1, kind: 'sure', score: null }], [{ side: 'src', index: 0 }]);
    const first = join(dir, 'first.jsonl');
    await runExport(store, { file: first, format: 'jsonl' });
    const again = fresh();
    await runImport(again, { file: first, format: 'jsonl', tokenization: 'segment' });
    const second = join(dir, 'second.jsonl');
    await runExport(again, { file: second, format: 'jsonl' });
    expect(readFileSync(second)).toEqual(readFileSync(first));
    const lines = readFileSync(first, 'utf8').split('\n');
    expect(lines[0]).toContain('"anna"');
    expect(JSON.parse(lines[1]).alignments[1]).toEqual({
      origin: 'gold',
      source: 'anna',
      links: [
        [1, 1, 'sure', null],
        [2, 4, 'possible', null, 'grammatically inferred'],
      ],
      untranslated: { src: [0], tgt: [3] },
    });
    expect(JSON.parse(lines[2]).rejected).toEqual([[3, 2, 'anna']]);
    expect(JSON.parse(lines[0])).toMatchObject({
      status: 'in-review',
      reviews: [
        { annotator: 'anna', status: 'done', note: 'checked "ambassador" — ok\nline two 🙂' },
        { annotator: 'ben', status: 'in-review' },
      ],
    });
    expect(JSON.parse(lines[1]).alignments[0]).toEqual({
      origin: 'gold',
      source: 'adjudicated',
      adjudicated: true,
      links: [[1, 1, 'sure', null]],
      untranslated: { src: [0], tgt: [] },
    });
    const [, b, c] = again.listPairs({}, 0, 3).pairs.map((p) => p.id);
    expect(editorPair(again, 'anna', b).untranslated).toEqual([
      { side: 'src', index: 0 },
      { side: 'tgt', index: 3 },
    ]);
    expect(editorPair(again, 'anna', c).rejected).toEqual([{ s: 3, t: 2 }]);
    expect(editorPair(again, 'anna', b).gold[1]).toEqual({ s: 2, t: 4, kind: 'possible', score: null, tag: 'grammatically inferred' });
    const [a] = again.listPairs({}, 0, 1).pairs.map((p) => p.id);
    expect(editorPair(again, 'anna', a)).toMatchObject({ status: 'done', note: 'checked "ambassador" — ok\nline two 🙂' });
    expect(editorPair(again, 'ben', a)).toMatchObject({ status: 'in-review', note: '' });
    store.close();
    again.close();
  });

  test('Pharaoh and TALP hold one alignment a file: chosen, merged gold, or one file each; never a per-pair pick', async () => {
    const store = fresh('en', 'vi');
    await runImport(store, {
      file: write('m2.en', 'a b\nc d\n'),
      tgtFile: write('m2.vi', 'x y\nz w\n'),
      format: 'moses',
      tokenization: 'pretokenized',
    });
    const [p1, p2] = store.listPairs({}, 0, 2).pairs.map((p) => p.id);
    const anna = goldAlignmentOf(store, 'anna');
    const ben = goldAlignmentOf(store, 'ben');
    const model = createAlignment(store, { origin: 'model', name: 'ibm2 run 1' });
    store.transaction(() => {
      linkInserter(store, anna)(p1, [{ s: 0, t: 0, kind: 'sure', score: null }]);
      linkInserter(store, ben)(p1, [{ s: 1, t: 1, kind: 'possible', score: null }]);
      linkInserter(store, ben)(p2, [{ s: 0, t: 1, kind: 'sure', score: null }]);
      linkInserter(store, model)(p1, [{ s: 0, t: 1, kind: 'sure', score: 0.9 }]);
      linkInserter(store, model)(p2, [{ s: 1, t: 0, kind: 'sure', score: 0.8 }]);
    });
    const out = join(dir, 'mixed.pharaoh');
    // Before: line 1 held anna's gold and line 2 the model's links, nothing saying which.
    await expect(runExport(store, { file: out, format: 'pharaoh' })).rejects.toThrow(
      /pharaoh holds one alignment per file and 3 are chosen/,
    );
    await expect(runExport(store, { file: out, format: 'talp', alignmentIds: [anna, model] })).rejects.toThrow(
      /talp holds one alignment per file and 2 are chosen/,
    );
    expect(await runExport(store, { file: out, format: 'pharaoh', linksFrom: model })).toMatch(/links of #\d+ ibm2 run 1 \(model\)/);
    expect(readFileSync(out, 'utf8')).toBe('0-1\n1-0\n');
    await runExport(store, { file: out, format: 'pharaoh', alignmentIds: [ben] });
    expect(readFileSync(out, 'utf8')).toBe('1?1\n0-1\n');
    expect(await runExport(store, { file: out, format: 'pharaoh', linksFrom: 'merged-gold' })).toMatch(/merged gold of anna, ben/);
    expect(readFileSync(out, 'utf8')).toBe('0-0 1?1\n0-1\n');
    const each = join(dir, 'each.talp');
    const summary = await runExport(store, { file: each, format: 'talp', linksFrom: 'each' });
    expect(summary).toMatch(/to 3 files, one per alignment/);
    expect(readFileSync(join(dir, 'each.gold-anna.talp'), 'utf8')).toBe('1 1 1 S\n');
    expect(readFileSync(join(dir, 'each.gold-ben.talp'), 'utf8')).toBe('1 2 2 P\n2 1 2 S\n');
    expect(readFileSync(join(dir, 'each.model-ibm2-run-1.talp'), 'utf8')).toBe('1 1 2 S\n2 2 1 S\n');
    // Beside the links: the tokenised sentences their indices count.
    expect(summary).toMatch(/tokenised text in .*each\.en and .*each\.vi$/);
    expect(readFileSync(join(dir, 'each.en'), 'utf8')).toBe('a b\nc d\n');
    expect(readFileSync(join(dir, 'each.vi'), 'utf8')).toBe('x y\nz w\n');
    store.close();
  });

  test('TSV and fast_align can be written tokenised; other formats refuse the option', async () => {
    const store = fresh('lo', 'th');
    await runImport(store, { file: write('tok.tsv', 'ສະບາຍດີໂລກ\tสวัสดีโลก\n'), format: 'tsv', tokenization: 'segment' });
    const out = join(dir, 'tok-out.tsv');
    await runExport(store, { file: out, format: 'tsv', tokenized: true });
    const [src, tgt] = readFileSync(out, 'utf8').trimEnd().split('\t');
    expect(src.split(' ').length).toBeGreaterThan(1);
    expect(src.replace(/ /g, '')).toBe('ສະບາຍດີໂລກ');
    expect(tgt.replace(/ /g, '')).toBe('สวัสดีโลก');
    await expect(runExport(store, { file: join(dir, 'tok.jsonl'), format: 'jsonl', tokenized: true })).rejects.toThrow(
      /--tokenized is for tsv and fastalign/,
    );
    store.close();
  });

  test('an export onto the project file itself is refused and the project survives', async () => {
    const store = fresh('en', 'vi');
    await runImport(store, {
      file: write('self.en', 'a b\n'),
      tgtFile: write('self.vi', 'x y\n'),
      format: 'moses',
      tokenization: 'pretokenized',
    });
    await expect(runExport(store, { file: store.path, format: 'tsv' })).rejects.toThrow(/is the project itself/);
    await expect(runExport(store, { file: `${store.path}-wal`, format: 'tsv' })).rejects.toThrow(/is the project itself/);
    await expect(runExport(store, { file: join(dir, 'no-such-folder', 'x.tsv'), format: 'tsv' })).rejects.toThrow(
      /no-such-folder: no such folder to export x\.tsv into$/,
    );
    store.close();
    const again = ProjectStore.open(store.path);
    expect(again.info().pairs).toBe(1);
    again.close();
  });

  test('filters by status and writes Pharaoh, 1-based on request', async () => {
    const store = fresh('en', 'vi');
    await runImport(store, {
      file: write('f.en', 'a b\nc d\n'),
      tgtFile: write('f.vi', 'x y\nz w\n'),
      format: 'moses',
      tokenization: 'pretokenized',
      linksFile: write('f.links', '0-0 1-1\n0-1\n'),
    });
    const [p1] = store.listPairs({}, 0, 2).pairs;
    store.updatePair('anna', p1.id, { status: 'done' });
    const out = join(dir, 'done.pharaoh');
    await runExport(store, { file: out, format: 'pharaoh', status: ['done'], oneBased: true });
    expect(readFileSync(out, 'utf8')).toBe('1-1 2-2\n');
    store.close();
  });
});
