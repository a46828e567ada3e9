// Live updates between the accounts of a real team server, over HTTP and its WebSocket with
// each account's own session: presence (who has which pair open) reaches those who may know
// it and, in blind mode, not another annotator; two adjudicators saving one pair both keep
// their links, and an undo takes back only its own; a note saved over a newer one is refused
// with a message to reload; concurrent gold edits of two annotators on one pair all land.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import type { TeamEvent } from '../../../src/shared/team-events.ts';
import { rebaseCells, linkKey, type Link } from '../../../src/shared/link-set.ts';
import { TeamFile } from '../../../src/main/store/team-file.ts';
import { hashPassword } from '../../../src/main/team/passwords.ts';
import { sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { Client, loggedIn, PASSWORDS, teamServer, type TeamServer } from './team-fixture.ts';

const dir = tempDir('mekong-live-');
let team: TeamServer;
const sockets: WebSocket[] = [];

/** A page's event socket: its session cookie, the server's Origin, and every event it got. */
class Page {
  readonly events: TeamEvent[] = [];
  private constructor(readonly ws: WebSocket) {}

  static async open(client: Client): Promise<Page> {
    const ws = new WebSocket(`${team.base.replace('http', 'ws')}/events`, { headers: { cookie: client.cookie, origin: team.base } });
    sockets.push(ws);
    const page = new Page(ws);
    ws.on('message', (data) => page.events.push(JSON.parse(String(data)) as TeamEvent));
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    return page;
  }

  openPair(pairId: number | null): void {
    this.ws.send(JSON.stringify({ type: 'open', pairId }));
  }

  /** The newest presence it was told: pair id → names. */
  presence(): Record<number, string[]> {
    const last = this.events.filter((e) => e.type === 'presence').at(-1);
    return Object.fromEntries((last?.type === 'presence' ? last.pairs : []).map((p) => [p.pairId, p.names]));
  }

  changes(): Extract<TeamEvent, { type: 'pair.changed' }>[] {
    return this.events.filter((e) => e.type === 'pair.changed');
  }
}

async function until(what: string, ok: () => boolean): Promise<void> {
  for (let waited = 0; !ok(); waited += 10) {
    if (waited > 5000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A settled socket: a round trip through the server after everything sent before. */
const settle = () => new Promise((r) => setTimeout(r, 150));

async function json<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  const body = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new Error(`${r.status} ${body.error}`);
  return body;
}

beforeAll(async () => {
  team = await teamServer(dir);
  const file = TeamFile.open(team.projectPath);
  file.addAccount('ada', 'adjudicator', await hashPassword(PASSWORDS.adjudicator), Date.now());
  file.close();
}, 60_000);
afterAll(async () => {
  for (const ws of sockets) ws.close();
  await team.close();
});

describe('rebaseCells', () => {
  test('applies the changes from base to next on the present cells and keeps the rest', () => {
    const l = (s: number, t: number, kind: Link['kind'] = 'sure'): Link => ({ s, t, kind, score: null });
    const present = [l(0, 0), l(1, 1), l(2, 2)];
    const merged = rebaseCells(present, [l(0, 0)], [l(0, 0, 'possible'), l(3, 3)], (x) => linkKey(x.s, x.t));
    expect(merged).toEqual([l(0, 0, 'possible'), l(1, 1), l(2, 2), l(3, 3)]);
    expect(rebaseCells(present, [l(1, 1)], [], (x) => linkKey(x.s, x.t))).toEqual([l(0, 0), l(2, 2)]);
  });
});

describe('presence', () => {
  test('the adjudicator sees which annotator has a pair open; in blind mode the other annotator does not', async () => {
    const [ann, bob, adi] = await Promise.all([
      loggedIn(team.base, 'annotator'),
      loggedIn(team.base, 'bob'),
      loggedIn(team.base, 'adjudicator'),
    ]);
    const [annPage, bobPage, adiPage] = await Promise.all([Page.open(ann), Page.open(bob), Page.open(adi)]);
    const [p1, p2] = team.pairIds;
    annPage.openPair(p1);
    await until('adi told ann is on p1', () => adiPage.presence()[p1]?.includes('ann'));
    bobPage.openPair(p1);
    await until('adi told bob is on p1 too', () => adiPage.presence()[p1]?.join() === 'ann,bob');
    adiPage.openPair(p1);
    await until('ann told adi is on p1', () => annPage.presence()[p1]?.join() === 'adi');
    await settle();
    // blind: each annotator sees the adjudicator, never the other annotator
    expect(annPage.presence()).toEqual({ [p1]: ['adi'] });
    expect(bobPage.presence()).toEqual({ [p1]: ['adi'] });
    expect(bobPage.events.some((e) => e.type === 'presence' && e.pairs.some((p) => p.names.includes('ann')))).toBe(false);

    // bob's gold edit: the adjudicator is told, ann (blind) is not
    await json(bob.call('editor.setGold', { pairId: p1, links: [sure(0, 0)], untranslated: [] }));
    await until('adi told bob changed p1', () => adiPage.changes().some((c) => c.by === 'bob' && c.layer === 'gold'));
    await settle();
    expect(annPage.changes()).toEqual([]);

    // moving and leaving are told as well
    annPage.openPair(p2);
    await until('adi told ann moved', () => adiPage.presence()[p2]?.join() === 'ann' && adiPage.presence()[p1]?.join() === 'bob');
    bobPage.ws.close();
    await until('adi told bob left', () => adiPage.presence()[p1] === undefined);
    annPage.ws.close();
    adiPage.ws.close();
  });

  test('when the annotators share their work, they see each other', async () => {
    const manager = await loggedIn(team.base, 'manager');
    await json(manager.call('project.setAnnotatorsShare', { share: true }));
    try {
      const [ann, bob] = await Promise.all([loggedIn(team.base, 'annotator'), loggedIn(team.base, 'bob')]);
      const [annPage, bobPage] = await Promise.all([Page.open(ann), Page.open(bob)]);
      const [p1] = team.pairIds;
      annPage.openPair(p1);
      await until('bob told ann is on p1', () => bobPage.presence()[p1]?.join() === 'ann');
      bobPage.openPair(p1);
      await until('ann told bob is on p1', () => annPage.presence()[p1]?.join() === 'bob');
      annPage.ws.close();
      bobPage.ws.close();
    } finally {
      await json(manager.call('project.setAnnotatorsShare', { share: false }));
    }
  });
});

describe('two users on one pair', () => {
  test('two adjudicators saving one pair from the same start both keep their links; an undo takes back only its own', async () => {
    const adi = await loggedIn(team.base, 'adjudicator');
    const ada = new Client(team.base);
    expect((await ada.login('ada', PASSWORDS.adjudicator)).status).toBe(200);
    const adaPage = await Page.open(ada);
    const pairId = team.pairIds[0];
    adaPage.openPair(pairId);
    const ann = team.ctx.store!.getPair(pairId);
    expect(ann.id).toBe(pairId);
    const golds = { left: 0, right: 0 };
    const annGold = await json<{ goldId: number }>(
      (await loggedIn(team.base, 'annotator')).call('editor.setGold', { pairId, links: [sure(0, 0), sure(1, 1)], untranslated: [] }),
    );
    const bobGold = await json<{ goldId: number }>((await loggedIn(team.base, 'bob')).call('editor.get', { pairId }));
    golds.left = annGold.goldId;
    golds.right = bobGold.goldId;
    // both open the adjudication: the adjudicated layer is empty for both
    const start = await json<{ result: { links: Link[]; untranslated: [] } }>(adi.call('adjudication.get', { pairId, ...golds }));
    const base = { links: start.result.links, untranslated: start.result.untranslated };
    expect(base.links).toEqual([]);
    // the same start: adi takes 0-0, ada takes 1-1 and marks a token, unaware of each other
    await json(adi.call('adjudication.save', { pairId, links: [sure(0, 0)], untranslated: [], base }));
    await until('ada told adi saved the adjudicated gold', () =>
      adaPage.changes().some((c) => c.layer === 'adjudicated' && c.by === 'adi' && c.pairId === pairId),
    );
    const saved = await json<{ links: Link[]; untranslated: unknown[] }>(
      ada.call('adjudication.save', { pairId, links: [sure(1, 1)], untranslated: [{ side: 'src', index: 2 }], base }),
    );
    expect(saved.links.map((l) => `${l.s}-${l.t}`)).toEqual(['0-0', '1-1']);
    expect(saved.untranslated).toEqual([{ side: 'src', index: 2 }]);
    // a whole-layer save without its base is refused on a team server
    const bare = await adi.call('adjudication.save', { pairId, links: [], untranslated: [] });
    expect(bare.status).toBe(400);
    expect(((await bare.json()) as { error: string }).error).toMatch(/base/);
    // adi undoes: 0-0 goes, ada's 1-1 and mark stay
    await json(adi.call('edits.undo', {}));
    const after = await json<{ result: { links: Link[]; untranslated: unknown[] } }>(adi.call('adjudication.get', { pairId, ...golds }));
    expect(after.result.links.map((l) => `${l.s}-${l.t}`)).toEqual(['1-1']);
    expect(after.result.untranslated).toEqual([{ side: 'src', index: 2 }]);
    // and redo brings 0-0 back beside them
    await json(adi.call('edits.redo', {}));
    const redone = await json<{ result: { links: Link[] } }>(adi.call('adjudication.get', { pairId, ...golds }));
    expect(redone.result.links.map((l) => `${l.s}-${l.t}`)).toEqual(['0-0', '1-1']);
    adaPage.ws.close();
  });

  test('a note saved over a newer one is refused with a message to reload; the newer note stays', async () => {
    const manager = await loggedIn(team.base, 'manager');
    await json(manager.call('project.setAnnotatorsShare', { share: true }));
    try {
      const [ann, bob] = await Promise.all([loggedIn(team.base, 'annotator'), loggedIn(team.base, 'bob')]);
      const pairId = team.pairIds[1];
      // both open the pair and see its (shared) note
      const seen = (await json<{ note: string }>(bob.call('editor.get', { pairId }))).note;
      expect((await json<{ note: string }>(ann.call('editor.get', { pairId }))).note).toBe(seen);
      await json(ann.call('pairs.update', { id: pairId, note: 'ann: check the classifier', noteBase: seen }));
      const stale = await bob.call('pairs.update', { id: pairId, note: 'bob: fine as is', noteBase: seen });
      expect(stale.status).toBe(400);
      expect(((await stale.json()) as { error: string }).error).toBe(
        `pair ${pairId}: its note was changed by someone else since you opened it; your note was not saved: reload the pair`,
      );
      expect((await json<{ note: string }>(bob.call('editor.get', { pairId }))).note).toBe('ann: check the classifier');
      // after reloading, bob's note goes in
      await json(bob.call('pairs.update', { id: pairId, note: 'bob: fine as is', noteBase: 'ann: check the classifier' }));
      // a note without the note it replaces is refused on a team server
      const bare = await ann.call('pairs.update', { id: pairId, note: 'x' });
      expect(bare.status).toBe(400);
      // ann's undo of her note does not remove bob's newer one
      await json(ann.call('edits.undo', {}));
      expect((await json<{ note: string }>(ann.call('editor.get', { pairId }))).note).toBe('bob: fine as is');
    } finally {
      await json(manager.call('project.setAnnotatorsShare', { share: false }));
    }
  });

  test('two annotators editing one pair at once: every acknowledged edit of each is in their gold', async () => {
    const [ann, bob] = await Promise.all([loggedIn(team.base, 'annotator'), loggedIn(team.base, 'bob')]);
    const pairId = team.pairIds[0];
    const cells = [sure(0, 0), sure(1, 1), sure(2, 2), sure(0, 1), sure(1, 2)];
    let lastAnn: Link[] = [];
    let lastBob: Link[] = [];
    await Promise.all(
      cells.flatMap((_, k) => [
        json(ann.call('editor.setGold', { pairId, links: cells.slice(0, k + 1), untranslated: [] })).then(
          () => (lastAnn = cells.slice(0, k + 1)),
        ),
        json(bob.call('editor.setGold', { pairId, links: cells.slice(k), untranslated: [] })).then(() => (lastBob = cells.slice(k))),
      ]),
    );
    const key = (links: Link[]) => links.map((l) => `${l.s}-${l.t}`).sort();
    expect(key((await json<{ gold: Link[] }>(ann.call('editor.get', { pairId }))).gold)).toEqual(key(lastAnn));
    expect(key((await json<{ gold: Link[] }>(bob.call('editor.get', { pairId }))).gold)).toEqual(key(lastBob));
  });
});
