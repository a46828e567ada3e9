// Assignments on real project files: ranges by pair id, a share with a stated overlap dealt to
// exact counts, the review queue's order, progress from each annotator's own statuses and gold,
// the overlap agreement is computed on; the `mekong user assign|unassign|assignments` commands;
// and on a team server: a manager writes them, an annotator reads and filters by their own only.
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { runCommandLine } from '../../../src/main/cli/commands.ts';
import { agreementReport } from '../../../src/main/review/agreement.ts';
import { assignmentsReport, assignPairs, dealShare, parseRanges, unassignPairs } from '../../../src/main/review/assign-pairs.ts';
import { setGold } from '../../../src/main/review/editor.ts';
import { setAdjudicated } from '../../../src/main/review/adjudication.ts';
import { reviewQueue } from '../../../src/main/review/queue.ts';
import { goldIdOf } from '../../../src/main/store/gold-layer.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { idsInBoth } from '../../../src/shared/team-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { model, project, sure } from '../review/fixture.ts';
import { loggedIn, teamServer, type Client, type TeamServer } from './team-fixture.ts';

const dir = tempDir('mekong-assign-');

function corpus(n: number) {
  return project(
    dir,
    Array.from({ length: n }, (_, k): [string, string] => [`a${k} b`, `x${k} y`]),
  );
}

describe('dealing pairs', () => {
  test('a share with overlap 0.2 of 1000 pairs between two annotators: 200 pairs doubly, 600 each, contiguous shares', () => {
    const ids = Array.from({ length: 1000 }, (_, k) => k + 1);
    const dealt = dealShare(ids, ['ann', 'bob'], 0.2);
    const byPair = new Map<number, string[]>();
    for (const d of dealt) byPair.set(d.pairId, [...(byPair.get(d.pairId) ?? []), d.annotator]);
    expect(byPair.size).toBe(1000);
    expect([...byPair.values()].filter((a) => a.length === 2)).toHaveLength(200);
    expect([...byPair.values()].every((a) => new Set(a).size === a.length)).toBe(true);
    expect(dealt.filter((d) => d.annotator === 'ann')).toHaveLength(600);
    expect(dealt.filter((d) => d.annotator === 'bob')).toHaveLength(600);
    // first annotators: ann 1–500, bob 501–1000
    expect(byPair.get(1)![0]).toBe('ann');
    expect(byPair.get(500)![0]).toBe('ann');
    expect(byPair.get(501)![0]).toBe('bob');
  });

  test('three annotators, 0.3 of 1001 pairs: exactly round(300.3) doubly, every two annotators share some, loads within 2', () => {
    const ids = Array.from({ length: 1001 }, (_, k) => 10 + k);
    const dealt = dealShare(ids, ['a', 'b', 'c'], 0.3);
    expect(dealt.length - 1001).toBe(300);
    const loads = ['a', 'b', 'c'].map((n) => dealt.filter((d) => d.annotator === n).length);
    expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(2);
    const pairsOf = (n: string) => new Set(dealt.filter((d) => d.annotator === n).map((d) => d.pairId));
    for (const [x, y] of [
      ['a', 'b'],
      ['b', 'c'],
      ['a', 'c'],
    ]) {
      const shared = [...pairsOf(x)].filter((id) => pairsOf(y).has(id)).length;
      expect(shared, `${x}+${y}`).toBeGreaterThan(90);
    }
  });

  test('an overlap with one annotator is refused; ranges parse, and nonsense says why in one line', () => {
    expect(() => dealShare([1, 2, 3], ['ann'], 0.5)).toThrow(/two annotators or more/);
    expect(dealShare([1, 2, 3], ['ann'], 0)).toHaveLength(3);
    expect(parseRanges('1-500,900-950, 7')).toEqual([
      { from: 1, to: 500 },
      { from: 900, to: 950 },
      { from: 7, to: 7 },
    ]);
    expect(() => parseRanges('1-x')).toThrow('"1-x" is not a pair id range');
    expect(() => parseRanges('9-3')).toThrow('a range starts at or before its end');
    // how many of an assignment's pairs ("1-10, 15, 20") ranges given to take back hold, overlapping ranges counted once
    expect(idsInBoth(parseRanges('1-10, 15, 20'), parseRanges('9-15,12-16'))).toBe(3);
    expect(idsInBoth(parseRanges('1-10'), parseRanges('11-20'))).toBe(0);
  });
});

describe('assignments in a project', () => {
  test('ranges, a share replacing them, unassign; progress from own status and gold; the overlap agreement compares', () => {
    const { store, ids } = corpus(10);
    const first = ids[0];
    expect(assignPairs(store, ['ann'], { kind: 'ranges', ranges: [{ from: first, to: first + 3 }] })).toBe(4);
    // again: nothing new
    expect(assignPairs(store, ['ann'], { kind: 'ranges', ranges: [{ from: first, to: first + 3 }] })).toBe(0);
    expect(() => assignPairs(store, ['ann'], { kind: 'ranges', ranges: [{ from: 9000, to: 9100 }] })).toThrow(
      'no pair has an id in 9000-9100',
    );
    let r = assignmentsReport(store);
    expect(r.annotators).toEqual([expect.objectContaining({ annotator: 'ann', assigned: 4, ranges: `${first}-${first + 3}` })]);
    expect(r.unassigned).toBe(6);
    expect(r.accounts).toBeNull();

    // a share of all ten, half doubly, replaces ann's range: ann first of 5, bob of 5, and each second on some of the other's
    assignPairs(store, ['ann', 'bob'], { kind: 'share', overlap: 0.5 });
    r = assignmentsReport(store);
    expect(r.unassigned).toBe(0);
    expect(r.annotators.map((a) => [a.annotator, a.assigned, a.shared])).toEqual([
      ['ann', 8, 5],
      ['bob', 7, 5],
    ]);
    expect(r.overlaps).toEqual([expect.objectContaining({ left: 'ann', right: 'bob', pairs: 5, bothLinked: 0 })]);

    // both link and finish one shared pair, ann links another shared pair she leaves In review
    const shared = ids.filter((id) => r.annotators.every((a) => a.ranges.split(', ').some((x) => inRange(x, id))));
    expect(shared).toHaveLength(5);
    const [p, q] = shared;
    setGold(store, 'ann', p, [sure(0, 0), sure(1, 1)], []);
    setGold(store, 'bob', p, [sure(0, 0)], []);
    setGold(store, 'ann', q, [sure(0, 0)], []);
    store.updatePair('ann', p, { status: 'done' });
    store.updatePair('bob', p, { status: 'done' });
    store.updatePair('ann', q, { status: 'in-review' });
    r = assignmentsReport(store);
    expect(r.annotators.find((a) => a.annotator === 'ann')).toMatchObject({ done: 1, inReview: 1, linked: 2 });
    expect(r.annotators.find((a) => a.annotator === 'bob')).toMatchObject({ done: 1, inReview: 0, linked: 1 });
    expect(r.overlaps[0].bothLinked).toBe(1);
    expect(assignmentsReport(store, 'bob').annotators.map((a) => a.annotator)).toEqual(['bob']);
    expect(assignmentsReport(store, 'bob').overlaps).toEqual([]);

    const report = agreementReport(store, goldIdOf(store, 'ann')!, goldIdOf(store, 'bob')!, { overlap: true });
    expect(report.pairs.map((x) => x.pairId)).toEqual([p]);
    expect(report.overall).toMatchObject({ reference: 2, candidate: 1, both: 1 });
    // take p off bob's assignment: it is no longer double annotation
    expect(unassignPairs(store, 'bob', [{ from: p, to: p }])).toBe(1);
    expect(agreementReport(store, goldIdOf(store, 'ann')!, goldIdOf(store, 'bob')!, { overlap: true }).pairs).toEqual([]);
    expect(() => agreementReport(store, goldIdOf(store, 'ann')!, goldIdOf(store, 'ann')!, { overlap: true })).not.toThrow();
    store.close();
  });

  test('doubly annotated pairs awaiting adjudication: linked by two of their annotators, nothing adjudicated yet', () => {
    const { store, ids } = corpus(4);
    const [p, q, r] = ids;
    assignPairs(store, ['ann', 'bob'], { kind: 'ranges', ranges: [{ from: p, to: ids[3] }] });
    expect(assignmentsReport(store).awaitingAdjudication).toBe(0);
    for (const id of [p, q]) for (const who of ['ann', 'bob']) setGold(store, who, id, [sure(0, 0)], []);
    setGold(store, 'ann', r, [sure(0, 0)], []);
    expect(assignmentsReport(store).awaitingAdjudication).toBe(2);
    setAdjudicated(store, 'adi', p, [sure(0, 0)], []);
    expect(assignmentsReport(store).awaitingAdjudication).toBe(1);
    // an adjudication that keeps only a "not translated" mark counts as done too
    setAdjudicated(store, 'adi', q, [], [{ side: 'src', index: 1 }]);
    expect(assignmentsReport(store).awaitingAdjudication).toBe(0);
    // an annotator's own report does not tell
    expect(assignmentsReport(store, 'ann').awaitingAdjudication).toBeNull();
    store.close();
  });

  test('by queue order: the most unsure unassigned pairs, count to each annotator in turn; the pair list and queue filter by assignment', () => {
    const { store, ids } = corpus(6);
    // pair k's one link has posterior scores: pairs 2 and 4 are the least sure
    const m = model(
      store,
      ids,
      [0.99, 0.97, 0.5, 0.95, 0.55, 0.98].map((p) => [[0, 0, p]]),
    );
    const order = reviewQueue(store, { alignmentId: m, offset: 0, limit: 10 }).items.map((i) => i.id);
    assignPairs(store, ['ann', 'bob'], { kind: 'queue', alignmentId: m, count: 2 });
    const ann = store.listPairs({ assignedTo: 'ann' }, { offset: 0 }, 10).pairs.map((p) => p.id);
    const bob = store.listPairs({ assignedTo: 'bob' }, { offset: 0 }, 10).pairs.map((p) => p.id);
    expect(ann).toEqual(order.slice(0, 2).sort((a, b) => a - b));
    expect(bob).toEqual(order.slice(2, 4).sort((a, b) => a - b));
    expect(ann).toEqual([ids[2], ids[4]]);
    // the next call takes the next unassigned ones
    assignPairs(store, ['ann'], { kind: 'queue', alignmentId: m, count: 5 });
    expect(store.listPairs({ assignedTo: 'ann' }, { offset: 0 }, 10).total).toBe(4);
    expect(() => assignPairs(store, ['cat'], { kind: 'queue', alignmentId: m, count: 1 })).toThrow(
      /every pair of the review queue is assigned/,
    );
    expect(reviewQueue(store, { alignmentId: m, assignedTo: 'bob', offset: 0, limit: 10 }).items.map((i) => i.id)).toEqual(
      order.slice(2, 4),
    );
    store.close();
  });
});

function inRange(part: string, id: number): boolean {
  const [a, b] = part.split('-').map(Number);
  return id >= a && id <= (b ?? a);
}

describe('mekong user assign', () => {
  async function mekong(...args: string[]) {
    let out = '';
    let err = '';
    vi.spyOn(console, 'log').mockImplementation((line: string) => void (out += `${line}\n`));
    // commander writes an option's refusal to stderr itself
    vi.spyOn(process.stderr, 'write').mockImplementation((line: string | Uint8Array) => ((err += String(line)), true));
    const code = (await runCommandLine(['node', 'mekong', ...args], (line) => (err += line))) ?? 0;
    vi.restoreAllMocks();
    return { code, out, err };
  }

  test('--range, --share --overlap, unassign, assignments; clear errors', async () => {
    const { store, ids } = corpus(20);
    const path = store.path;
    store.close();
    const first = ids[0];
    const a = await mekong('user', 'assign', path, 'ann', '--range', `${first}-${first + 9}`);
    expect(a.code, a.err).toBe(0);
    expect(a.out).toMatch(/^10 assignments made\.\nann\t10 pairs\t0 shared\t/);
    const s = await mekong('user', 'assign', path, 'ann', 'bob', '--share', '--overlap', '0.2');
    expect(s.code, s.err).toBe(0);
    expect(s.out).toContain('ann\t12 pairs\t4 shared');
    expect(s.out).toContain('bob\t12 pairs\t4 shared');
    // bob's first two pairs of his share, which nobody else has: unassigned afterwards
    const u = await mekong('user', 'unassign', path, 'bob', '--range', `${first + 10}-${first + 11}`);
    expect(u.out).toContain("2 pairs taken off bob's assignment.");
    const list = await mekong('user', 'assignments', path);
    expect(list.out).toMatch(/^20 pairs, 2 unassigned\nann\t0\/12 done/);
    expect(list.out).toMatch(/ann \+ bob\t\d+ pairs shared\t0 linked by both/);
    expect((await mekong('user', 'assign', path, 'ann')).err).toContain(
      'say which pairs: --range 1-500, --queue 200, or --share --overlap 0.2',
    );
    expect((await mekong('user', 'assign', path, 'ann', '--range', '1-x')).err).toContain('"1-x" is not a pair id range');
    expect((await mekong('user', 'assign', path, 'ann', '--share', '--overlap', '2')).err).toContain('expected a fraction from 0 to 1');
    expect((await mekong('user', 'assign', path, 'ann', '--range', '1-2', '--overlap', '0.2')).err).toContain(
      '--overlap goes with --share',
    );
    expect((await mekong('user', 'assign', path, 'ann', '--queue', '5')).err).toContain('align the project first');
    const again = ProjectStore.open(path);
    expect(assignmentsReport(again).annotators.find((x) => x.annotator === 'bob')!.assigned).toBe(10);
    again.close();
  });
});

describe('on a team server', () => {
  let team: TeamServer;
  let manager: Client, ann: Client, bob: Client, adjudicator: Client;
  beforeAll(async () => {
    team = await teamServer(tempDir('mekong-assign-team-'));
    [manager, ann, bob, adjudicator] = await Promise.all([
      loggedIn(team.base, 'manager'),
      loggedIn(team.base, 'annotator'),
      loggedIn(team.base, 'bob'),
      loggedIn(team.base, 'adjudicator'),
    ]);
  }, 60_000);
  afterAll(() => team.close());

  const json = async <T>(res: Response): Promise<T> => (await res.json()) as T;

  test('a manager assigns (accounts checked); an annotator cannot, and reads and filters by their own assignment only', async () => {
    const [p1, p2] = team.pairIds;
    const nope = await manager.call('assignments.assign', { annotators: ['zed'], how: { kind: 'ranges', ranges: [{ from: p1, to: p2 }] } });
    expect(nope.status).toBe(400);
    expect((await json<{ error: string }>(nope)).error).toContain('zed: no annotator account of that name');
    const ok = await manager.call('assignments.assign', { annotators: ['ann', 'bob'], how: { kind: 'share', overlap: 0.5 } });
    expect(ok.status).toBe(200);
    const { report } = await json<{ report: { annotators: { annotator: string; assigned: number }[]; accounts: string[] } }>(ok);
    expect(report.accounts).toEqual(['ann', 'bob']);
    expect(report.annotators.map((a) => [a.annotator, a.assigned])).toEqual([
      ['ann', 2],
      ['bob', 1],
    ]);
    for (const c of [ann, adjudicator])
      expect(
        (await c.call('assignments.assign', { annotators: ['ann'], how: { kind: 'ranges', ranges: [{ from: p1, to: p1 }] } })).status,
      ).toBe(403);
    expect((await ann.call('assignments.unassign', { annotator: 'bob' })).status).toBe(403);

    const own = await json<{ annotators: { annotator: string }[]; overlaps: unknown[]; accounts: unknown }>(
      await bob.call('assignments.list', {}),
    );
    expect(own.annotators.map((a) => a.annotator)).toEqual(['bob']);
    expect(own.overlaps).toEqual([]);
    expect(own.accounts).toBeNull();
    expect((await json<{ annotators: unknown[] }>(await adjudicator.call('assignments.list', {}))).annotators).toHaveLength(2);

    // bob asks for ann's assignment: he gets his own
    const list = await json<{ pairs: { id: number }[] }>(
      await bob.call('pairs.list', { filter: { assignedTo: 'ann' }, offset: 0, limit: 10 }),
    );
    expect(list.pairs.map((p) => p.id)).toEqual([p2]);
    const queue = await json<{ items: { id: number }[] }>(
      await bob.call('queue.list', { alignmentId: team.modelId, assignedTo: 'ann', offset: 0, limit: 10 }),
    );
    expect(queue.items.map((p) => p.id)).toEqual([p2]);
    // the manager asks for ann's and gets hers
    const hers = await json<{ pairs: { id: number }[] }>(
      await manager.call('pairs.list', { filter: { assignedTo: 'ann' }, offset: 0, limit: 10 }),
    );
    expect(hers.pairs.map((p) => p.id)).toEqual([p1, p2]);
  });

  test("app.info tells the page the caller's role and the channels the role table lets it call", async () => {
    const info = await json<{ role: string; channels: string[] }>(await ann.call('app.info', {}));
    expect(info.role).toBe('annotator');
    expect(info.channels).toContain('editor.setGold');
    expect(info.channels).toContain('assignments.list');
    expect(info.channels).not.toContain('import.start');
    expect(info.channels).not.toContain('assignments.assign');
    expect(info.channels).not.toContain('project.setAnnotatorsShare');
    const m = await json<{ role: string; channels: string[] }>(await manager.call('app.info', {}));
    expect(m.channels).toContain('assignments.assign');
    expect(m.channels).not.toContain('adjudication.save');
  });
});
