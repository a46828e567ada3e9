// The posterior-threshold decoding as the app's Align job runs it, on the Lao–Thai sample: the
// job keeps the links at or above the threshold asked for; every statistical run, whatever its
// decoding, stores the counts of its cells by mean posterior with the alignment, and those
// counts predict the link count of a `post` run at any threshold (what the Align… dialog
// shows); after agreement training the decoding holds every grow-diag-final-and link up to a
// threshold of 0.5.
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { alignCorpus } from '../../../src/main/align/engine.ts';
import { alignProject } from '../../../src/main/align/project-align.ts';
import { statisticalAlignJob } from '../../../src/main/aligners/statistical-align-job.ts';
import { runImport } from '../../../src/main/corpus/import-pipeline.ts';
import { sampleImport } from '../../../src/main/corpus/sample.ts';
import { loadCorpus } from '../../../src/main/store/pair-corpus.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { linksAt } from '../../../src/shared/link-count-curve.ts';
import { linkKey } from '../../../src/shared/link-set.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir();

test("a run's link counts by score predict the next run's links at another threshold", async () => {
  const store = ProjectStore.create(join(dir, 'p.mekong'), { name: 'p', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  expect(await alignProject(store, { method: 'ibm1', sym: 'post', threshold: 0.4 })).toMatch(/ibm1 \+ post ≥ 0\.4/);
  const first = store.info().alignments.at(-1)!;
  const curve = first.linkCurve!;
  expect(curve).toMatchObject({ pairs: 265, floor: 0.05 });
  expect(first.links).toBe(linksAt(curve, 0.4));
  expect(linksAt(curve, 0.04)).toBeNull();
  // more links at a lower threshold, as many as the first run's curve said
  await alignProject(store, { method: 'ibm1', sym: 'post', threshold: 0.1 });
  const second = store.info().alignments.at(-1)!;
  expect(second.links).toBe(linksAt(curve, 0.1));
  expect(second.links).toBeGreaterThan(first.links);
  // another decoding counts the same cells (the same EM), and takes no threshold
  await alignProject(store, { method: 'ibm1', sym: 'gdfa' });
  const gdfa = store.info().alignments.at(-1)!;
  expect(gdfa.linkCurve).toEqual(curve);
  expect(curve.method).toBe('ibm1');
  expect(gdfa.links).not.toBe(linksAt(curve, 0.4));
  expect(() => statisticalAlignJob.check(store, { method: 'agree', sym: 'gdfa', threshold: 0.3 })).toThrow(
    /threshold is for the posterior decoding/,
  );
  store.close();
}, 300_000);

test('after agreement training, post at 0.5 holds every grow-diag-final-and link', async () => {
  const store = ProjectStore.create(join(dir, 'g.mekong'), { name: 'g', srcLang: 'lo', tgtLang: 'th' });
  await runImport(store, sampleImport());
  const { src, tgt } = loadCorpus(store, false);
  store.close();
  const gdfa = (await alignCorpus(src, tgt, { method: 'agree', sym: 'gdfa' })).links;
  const post = (await alignCorpus(src, tgt, { method: 'agree', sym: 'post', threshold: 0.5 })).links;
  let held = 0;
  gdfa.forEach((links, k) => {
    const keys = new Set(post[k].map((l) => linkKey(l.s, l.t)));
    for (const l of links) if (keys.has(linkKey(l.s, l.t))) held++;
  });
  expect(held).toBe(gdfa.reduce((n, l) => n + l.length, 0));
}, 300_000);
