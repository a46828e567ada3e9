// Mining through the API on a real project file: the project holds 2,000 en–de news pairs
// (../shared/data bench-corpora/uniq39k); two monolingual files hide 150 translation pairs
// among 250 lone sentences a side, in shuffled order, with blank lines. The Mine job stores
// proposals whose texts are exactly the file lines they name; the linguist's decisions are
// kept; adding the accepted ones makes one 'mined' import whose pairs carry their origin;
// adding again adds nothing; deleting the run leaves the corpus pairs. Bad input fails in one
// line and leaves no run behind.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { JobRegistry } from '../../../src/main/jobs/job-registry.ts';
import { Rng } from '../../../src/main/nn/init.ts';
import { normalizeText } from '../../../src/main/text/normalize.ts';
import { project } from '../review/fixture.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { jobOutcome } from '../helpers/job-outcome.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dbOf } from '../../../src/main/store/connection.ts';

const CORPORA = join(import.meta.dirname, '../../../../shared/data/bench-corpora');
const dir = tempDir('mekong-mine-');
const TRAIN = 2000,
  HIDDEN = 150,
  LONE = 250;

test.runIf(existsSync(join(CORPORA, 'uniq39k.en')))(
  'proposes pairs from two monolingual files, keeps decisions, adds the accepted ones with provenance',
  async () => {
    const lines = (side: string) => readFileSync(join(CORPORA, `uniq39k.${side}`), 'utf8').split('\n');
    const en = lines('en'),
      de = lines('de');
    const { store } = project(
      dir,
      en.slice(0, TRAIN).map((s, k) => [s, de[k]]),
    );
    store.setLanguages('en', 'de');
    const ctx: AppContext = { mode: 'browser', version: 't', store, annotator: 'a', jobs: new JobRegistry(), dataDir: dir };
    const api = dispatchApi(ctx);

    // hidden pairs: lines TRAIN … TRAIN+HIDDEN of both sides; lone sentences from further on, distinct per side
    const rng = new Rng(5);
    const hidden = Array.from({ length: HIDDEN }, (_, k) => TRAIN + k);
    const srcIdx = rng.shuffle([...hidden, ...Array.from({ length: LONE }, (_, k) => TRAIN + HIDDEN + k)]);
    const tgtIdx = rng.shuffle([...hidden, ...Array.from({ length: LONE }, (_, k) => TRAIN + HIDDEN + LONE + k)]);
    // a blank line after every 50th sentence: line numbers must still name the file's lines
    const fileLines = (idx: number[], side: string[]) => idx.flatMap((i, k) => (k % 50 === 49 ? [side[i], ''] : [side[i]]));
    // file line number → corpus line, per side
    const corpusLine = (idx: number[]) => new Map(idx.map((i, k) => [k + 1 + Math.floor(k / 50), i]));
    const srcFile = join(dir, 'comparable.en'),
      tgtFile = join(dir, 'comparable.de');
    const srcFileLines = fileLines(srcIdx, en),
      tgtFileLines = fileLines(tgtIdx, de);
    writeFileSync(srcFile, srcFileLines.join('\n') + '\n');
    writeFileSync(tgtFile, tgtFileLines.join('\r\n') + '\r\n');

    let done = jobOutcome(ctx);
    await api.invoke('mine.start', { srcFile, tgtFile, tokenization: 'pretokenized' });
    expect(await done).toMatch(/^mining run 1: \d+ pairs proposed from 400 × 400 sentences \(threshold -?\d/);
    const [run] = await api.invoke('mine.runs', {});
    expect(run).toMatchObject({ id: 1, srcFile, tgtFile, srcLines: 400, tgtLines: 400, added: 0 });
    expect(run.thresholdSource).toMatch(/held-out project pairs/);
    const all = await api.invoke('mine.proposals', { runId: 1, offset: 0, limit: 1000 });
    expect(all.total).toBe(run.counts.pending);
    expect(all.total).toBeGreaterThan(20);
    // every proposal's texts are the lines it names (normalised as an import does); each line in at most one proposal; best score first
    const lineOf = (fileLinesOf: string[], n: number) => normalizeText(fileLinesOf[n - 1]);
    for (const p of all.proposals) {
      expect(p.srcText).toBe(lineOf(srcFileLines, p.srcLine));
      expect(p.tgtText).toBe(lineOf(tgtFileLines, p.tgtLine));
    }
    expect(new Set(all.proposals.map((p) => p.srcLine)).size).toBe(all.total);
    expect(new Set(all.proposals.map((p) => p.tgtLine)).size).toBe(all.total);
    expect(all.proposals.map((p) => p.score)).toEqual(all.proposals.map((p) => p.score).sort((a, b) => b - a));
    // far better than chance: a random target is right for 1 source in 400 (0.0025); Bi-Sent2Vec
    // from 2,000 pairs gets about 0.4 of its proposals right (Hogwild training varies run to run)
    const [srcAt, tgtAt] = [corpusLine(srcIdx), corpusLine(tgtIdx)];
    const isTrue = (p: (typeof all.proposals)[number]) => srcAt.get(p.srcLine) === tgtAt.get(p.tgtLine);
    const correct = all.proposals.filter(isTrue).length;
    expect(correct / all.total).toBeGreaterThan(0.2);

    // the linguist accepts the true ones of the first page, rejects the others, accepts all above a score
    const page = (await api.invoke('mine.proposals', { runId: 1, offset: 0, limit: 20 })).proposals;
    const accept = page.filter(isTrue).map((p) => p.id),
      reject = page.filter((p) => !isTrue(p)).map((p) => p.id);
    await api.invoke('mine.decide', { runId: 1, ids: accept, decision: 'accepted' });
    let info = await api.invoke('mine.decide', { runId: 1, ids: reject, decision: 'rejected' });
    expect(info.counts).toEqual({ accepted: accept.length, rejected: reject.length, pending: all.total - 20 });
    const pending = await api.invoke('mine.proposals', { runId: 1, decision: 'pending', order: 'source', offset: 0, limit: 1000 });
    expect(pending.total).toBe(all.total - 20);
    expect(pending.proposals.map((p) => p.srcLine)).toEqual(pending.proposals.map((p) => p.srcLine).sort((a, b) => a - b));
    const top = all.proposals[25].score;
    info = await api.invoke('mine.decide', { runId: 1, minScore: top, decision: 'accepted' });
    expect(info.counts.accepted).toBe(accept.length + 6);
    expect(info.counts.rejected).toBe(reject.length); // a rejected one stays rejected

    // added to the corpus as one import; the pairs' notes name their origin
    const before = store.info().pairs;
    const added = await api.invoke('mine.addAccepted', { runId: 1 });
    expect(added.added).toBe(info.counts.accepted);
    expect(added.run.added).toBe(added.added);
    expect(store.info().pairs).toBe(before + added.added);
    const imported = dbOf(store).prepare(`SELECT file, format, state, pairs FROM imports WHERE id = ?`).get(added.importId) as Record<
      string,
      unknown
    >;
    expect(imported).toMatchObject({ format: 'mined', state: 'done', pairs: added.added });
    const accepted = (await api.invoke('mine.proposals', { runId: 1, decision: 'accepted', offset: 0, limit: 1000 })).proposals;
    for (const p of accepted) {
      const pair = await api.invoke('pairs.get', { id: p.pairId! });
      expect(pair.src).toBe(p.srcText);
      expect(pair.tgt).toBe(p.tgtText);
      expect(pair.note).toBe(
        `mined (run 1): comparable.en line ${p.srcLine} × comparable.de line ${p.tgtLine}, margin ${p.score.toFixed(3)}`,
      );
    }
    // a pair added once is not added again, and its decision is fixed
    expect((await api.invoke('mine.addAccepted', { runId: 1 })).added).toBe(0);
    await api.invoke('mine.decide', { runId: 1, ids: [accepted[0].id], decision: 'rejected' });
    expect((await api.invoke('mine.runs', {}))[0].counts.accepted).toBe(accepted.length);
    // deleting the run keeps the corpus pairs
    expect(await api.invoke('mine.deleteRun', { runId: 1 })).toEqual([]);
    expect(store.info().pairs).toBe(before + added.added);

    // bad input: one line naming the file; nothing stored
    writeFileSync(join(dir, 'blank.de'), '\n  \n');
    done = jobOutcome(ctx);
    await api.invoke('mine.start', { srcFile, tgtFile: join(dir, 'blank.de') });
    await expect(done).rejects.toThrow(`${join(dir, 'blank.de')}: no sentences (the file is empty or blank)`);
    writeFileSync(join(dir, 'thai.txt'), 'สวัสดี ครับ\nขอบคุณ มาก\n');
    done = jobOutcome(ctx);
    await api.invoke('mine.start', { srcFile, tgtFile: join(dir, 'thai.txt') });
    await expect(done).rejects.toThrow(`${join(dir, 'thai.txt')}: looks like Thai script, but de is written in Latin script (project: de)`);
    await expect(api.invoke('mine.proposals', { runId: 7, offset: 0, limit: 10 })).rejects.toThrow('no mining run 7 in this project');
    // cancelled while training: no run stored
    done = jobOutcome(ctx);
    const { jobId } = await api.invoke('mine.start', { srcFile, tgtFile, tokenization: 'pretokenized' });
    setTimeout(() => void api.invoke('jobs.cancel', { jobId }), 300);
    await expect(done).rejects.toThrow('cancelled');
    expect(await api.invoke('mine.runs', {})).toEqual([]);
    store.close();
  },
  300_000,
);
