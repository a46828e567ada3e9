// A call sent again with its request id (its answer was lost with the connection) runs once
// and gets the first answer: on a real team server with a real project file, an undo sent
// twice — one after the other, or both at once — takes back one edit; a merge sent twice
// joins two tokens, not three; the same id from another account is that account's own call;
// an undo sent again to a server started after the first one stopped is answered from the
// project file, not run again; a change whose answer the server never saved is not run again.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { REQUEST_ID_HEADER } from '../../../src/shared/api.ts';
import { CallReplies } from '../../../src/main/api/call-replies.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { editorPair, setGold } from '../../../src/main/review/editor.ts';
import { startServer } from '../../../src/main/server.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { project, sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { loggedIn, teamServer, type Client, type TeamServer } from '../team/team-fixture.ts';

const dir = tempDir('mekong-replies-');
let team: TeamServer;

beforeAll(async () => {
  team = await teamServer(dir);
}, 60_000);
afterAll(async () => {
  await team.close();
});

async function json<T>(res: Promise<Response>): Promise<T> {
  const r = await res;
  const body = (await r.json()) as T & { error?: string };
  if (!r.ok) throw new Error(`${r.status} ${body.error}`);
  return body;
}

/** The account's gold on the pair, as cells, read from the project file. */
const goldOf = (who: string, pairId: number) =>
  editorPair(team.ctx.store!, who, pairId)
    .gold.map((l) => `${l.s}-${l.t}`)
    .sort();

const once = (client: Client, channel: string, input: unknown, id: string) => client.call(channel, input, { [REQUEST_ID_HEADER]: id });

describe('a call sent again with its request id', () => {
  test('an undo sent twice, one after the other or both at once, takes back one edit', async () => {
    const ann = await loggedIn(team.base, 'annotator');
    const pairId = team.pairIds[0];
    for (const links of [[sure(0, 0)], [sure(0, 0), sure(1, 1)], [sure(0, 0), sure(1, 1), sure(2, 2)]])
      await json(ann.call('editor.setGold', { pairId, links, untranslated: [] }));

    const first = await json<{ pair: { gold: unknown[] } }>(once(ann, 'edits.undo', {}, 'page1-7.0'));
    const again = await json<{ pair: { gold: unknown[] } }>(once(ann, 'edits.undo', {}, 'page1-7.0'));
    expect(again).toEqual(first);
    expect(goldOf('ann', pairId)).toEqual(['0-0', '1-1']);

    // both sends under way at once (the first still running when the second arrives)
    const both = await Promise.all([once(ann, 'edits.undo', {}, 'page1-8.0'), once(ann, 'edits.undo', {}, 'page1-8.0')].map(json));
    expect(both[1]).toEqual(both[0]);
    expect(goldOf('ann', pairId)).toEqual(['0-0']);

    // a redo with its own id, sent twice: one edit comes back
    await json(once(ann, 'edits.redo', {}, 'page1-9.0'));
    await json(once(ann, 'edits.redo', {}, 'page1-9.0'));
    expect(goldOf('ann', pairId)).toEqual(['0-0', '1-1']);
    // without an id, every call runs
    await json(ann.call('edits.undo', {}));
    await json(ann.call('edits.undo', {}));
    expect(goldOf('ann', pairId)).toEqual([]);
  });

  test("the same id from another account is that account's own call", async () => {
    const [ann, bob] = await Promise.all([loggedIn(team.base, 'annotator'), loggedIn(team.base, 'bob')]);
    const pairId = team.pairIds[1];
    await json(ann.call('editor.setGold', { pairId, links: [sure(0, 0)], untranslated: [] }));
    await json(bob.call('editor.setGold', { pairId, links: [sure(1, 1)], untranslated: [] }));
    await json(once(ann, 'edits.undo', {}, 'shared-id.0'));
    await json(once(bob, 'edits.undo', {}, 'shared-id.0'));
    expect(goldOf('ann', pairId)).toEqual([]);
    expect(goldOf('bob', pairId)).toEqual([]);
  });

  test('a merge sent twice joins two tokens, not three', async () => {
    const ann = await loggedIn(team.base, 'annotator');
    const pairId = team.pairIds[0];
    const merged = await json<{ srcTokens: { text: string }[] }>(once(ann, 'tokens.merge', { pairId, side: 'src', index: 0 }, 'page2-1.0'));
    expect(merged.srcTokens.map((t) => t.text)).toEqual(['a b', 'c']);
    await json(once(ann, 'tokens.merge', { pairId, side: 'src', index: 0 }, 'page2-1.0'));
    expect(team.ctx.store!.getPair(pairId).srcTokens.map((t) => t.text)).toEqual(['a b', 'c']);
  });

  test('a malformed request id is refused in one line', async () => {
    const ann = await loggedIn(team.base, 'annotator');
    const res = await once(ann, 'edits.undo', {}, 'not an id!');
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(`${REQUEST_ID_HEADER}: expected 1 to 100 letters, digits or _.:-`);
  });
});

describe('a change sent again to a restarted server', () => {
  test('an undo answered before the server stopped is answered again, not run again', async () => {
    const first = await teamServer(dir);
    const pairId = first.pairIds[0];
    let ann = await loggedIn(first.base, 'annotator');
    for (const links of [[sure(0, 0)], [sure(0, 0), sure(1, 1)], [sure(0, 0), sure(1, 1), sure(2, 2)]])
      await json(ann.call('editor.setGold', { pairId, links, untranslated: [] }));
    const answered = await json<{ pair: { gold: unknown[] } }>(once(ann, 'edits.undo', {}, 'page3-4.0'));
    expect(answered.pair.gold).toHaveLength(2);
    await first.close();

    // a new server process's state: a new context, the project opened again from its file
    const ctx = createContext('browser', 'nobody', join(dir, 'data-2'));
    ctx.store = ProjectStore.open(first.projectPath);
    const server = await startServer(ctx, { team: { projectPath: first.projectPath } });
    try {
      ann = await loggedIn(server.url.replace(/\/$/, ''), 'annotator');
      const again = await json<{ pair: { gold: unknown[] } }>(once(ann, 'edits.undo', {}, 'page3-4.0'));
      expect(again).toEqual(answered);
      expect(editorPair(ctx.store, 'ann', pairId).gold).toHaveLength(2);
      // a new id is a new undo
      await json(once(ann, 'edits.undo', {}, 'page3-5.0'));
      expect(editorPair(ctx.store, 'ann', pairId).gold).toHaveLength(1);
    } finally {
      await server.close();
      ctx.store.close();
    }
  });

  test('a change committed whose answer was never saved is not run again: the repeat says to reload', async () => {
    const { store, ids } = project(dir, [['a b', 'x y']]);
    const request = { account: 'ann', channel: 'editor.setGold', id: 'page4-1.0' };
    // the server stops between the change's commit and its answer
    await expect(
      new CallReplies().once(store, request, async () => {
        setGold(store, 'ann', ids[0], [sure(0, 0)], []);
        throw new Error('the process ends here');
      }),
    ).rejects.toThrow('the process ends here');
    let runs = 0;
    const repeat = await new CallReplies().once(store, request, async () => ({ ok: true, value: ++runs }));
    expect(runs).toBe(0);
    expect(repeat).toEqual({
      ok: false,
      error: { error: 'this change was saved, but the server stopped before answering it: reload the pair to see it', kind: 'input' },
    });
    store.close();
  });
});
