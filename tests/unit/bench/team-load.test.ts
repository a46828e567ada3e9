// The team load test's harness, short and with a fixed seed: a small project served by a real
// `mekong serve --team` child process, 5 annotators for 10 s while the manager aligns; every
// acknowledged edit is found in the database, no call fails, latencies and the server's memory
// are measured; and the check of lost edits finds an acknowledged link removed behind its back.
import { expect, test } from 'vitest';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { goldIdOf } from '../../../src/main/store/gold-layer.ts';
import { recordEdit } from '../../../src/main/store/edits.ts';
import { pairLinksReader } from '../../../src/main/store/alignments.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { annotatorName, lostEdits, teamLoad, teamProject } from '../../bench/team-load.ts';

const dir = tempDir('mekong-team-load-');

test('5 annotators for 10 s on a small project while the manager aligns: no error, no acknowledged edit lost', async () => {
  const project = await teamProject(dir, 400, 5);
  const report = await teamLoad({ project, clients: 5, seconds: 10, seed: 7, alignMethod: 'ibm1', thinkMs: 100 });
  expect(report.errors).toEqual({});
  expect(report.edits).toBeGreaterThan(50);
  expect(report.undos).toBeGreaterThan(0);
  expect(report.moves).toBeGreaterThan(5);
  expect(report.pairsChecked).toBeGreaterThan(5);
  expect(report.lost).toBe(0);
  expect(report.editP50).toBeGreaterThan(0);
  expect(report.editP99).toBeGreaterThanOrEqual(report.editP50);
  expect(report.serverPeakRssMb).toBeGreaterThan(30);
  expect(report.align?.outcome).toBe('done');

  // the check reads the database: a link acknowledged to a01 and then removed unseen is counted lost
  const [pairId, cells] = [...report.acknowledged.get(annotatorName(0))!].find(([, c]) => c.length > 0)!;
  const store = ProjectStore.open(project);
  const goldId = goldIdOf(store, annotatorName(0))!;
  const key = String(goldId);
  const links = pairLinksReader(store)(goldId, pairId);
  recordEdit(store, 'someone-else', pairId, 'links.set', { links: { [key]: links } }, { links: { [key]: links.slice(1) } });
  store.close();
  expect(cells.length).toBeGreaterThan(0);
  expect(lostEdits(project, report.acknowledged).lost).toBe(1);
}, 180_000);
