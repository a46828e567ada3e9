// The role table against a real team server and project file: every channel of the contract
// tried by every role (a refused call is a 403 before its input is even read; an allowed one
// reaches the input check, here a 400 for a probe field no channel takes, so nothing runs);
// then what the roles mean on real calls: each edit is the logged-in account's, an annotator
// cannot name another's gold, settings.setAnnotator is refused, the single-user server
// keeps its token and no role table.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { channels, type Channel } from '../../../src/shared/api.ts';
import { ROLES, type Role } from '../../../src/main/store/team-file.ts';
import { PERMISSIONS } from '../../../src/main/team/permissions.ts';
import { goldIdOf } from '../../../src/main/store/gold-layer.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { startServer } from '../../../src/main/server.ts';
import { sure } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { loggedIn, teamServer, type Client, type TeamServer } from './team-fixture.ts';

const dir = tempDir('mekong-roles-');
let team: TeamServer;
const clients = {} as Record<Role | 'bob', Client>;

beforeAll(async () => {
  team = await teamServer(dir);
  for (const role of [...ROLES, 'bob'] as const) clients[role] = await loggedIn(team.base, role);
}, 60_000);
afterAll(() => team.close());

const table = Object.entries(PERMISSIONS) as [Channel, readonly Role[]][];

test('the table has every channel of the contract, and nothing else', () => {
  expect(Object.keys(PERMISSIONS).sort()).toEqual(Object.keys(channels).sort());
});

describe.each(ROLES)('as %s', (role) => {
  test.each(table)('%s', async (channel, allowed) => {
    const res = await clients[role].call(channel, { __probe: 1 });
    const body = (await res.json()) as { error: string };
    if (allowed.includes(role)) {
      expect(res.status, body.error).toBe(400);
      expect(body.error).toContain('__probe');
    } else {
      expect(res.status, body.error).toBe(403);
      expect(body.error).toContain(channel);
    }
  });
});

describe('roles on real calls', () => {
  test("every edit is the logged-in account's: each annotator writes their own gold", async () => {
    const [p1, p2] = team.pairIds;
    const ann = await clients.annotator.call('editor.setGold', { pairId: p1, links: [sure(0, 0)], untranslated: [] });
    expect(ann.status).toBe(200);
    const bob = await clients.bob.call('editor.setGold', { pairId: p2, links: [sure(1, 1)], untranslated: [] });
    expect(bob.status).toBe(200);
    const store = team.ctx.store!;
    expect(goldIdOf(store, 'ann')).not.toBeNull();
    expect(goldIdOf(store, 'bob')).not.toBeNull();
    expect(goldIdOf(store, 'nobody')).toBeNull();
    expect(((await ann.json()) as { goldId: number }).goldId).toBe(goldIdOf(store, 'ann'));
    // the server's own annotator setting is nobody's: the request's account is
    expect(team.ctx.annotator).toBe('nobody');
  });

  test('settings.setAnnotator is refused for every role, and nobody becomes someone else', async () => {
    for (const role of ROLES) expect((await clients[role].call('settings.setAnnotator', { annotator: 'bob' })).status).toBe(403);
    expect(await (await clients.annotator.call('app.info', {})).json()).toMatchObject({ annotator: 'ann' });
  });

  test("an annotator cannot name another annotator's gold; the model's and their own they can", async () => {
    const store = team.ctx.store!;
    const bobGold = goldIdOf(store, 'bob')!;
    const annGold = goldIdOf(store, 'ann')!;
    const queue = (alignmentId: number, client = clients.annotator) => client.call('queue.list', { alignmentId, offset: 0, limit: 10 });
    const refused = await queue(bobGold);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: string }).error).toMatch(/another annotator's gold/);
    expect((await queue(team.modelId)).status).toBe(200);
    expect((await queue(annGold)).status).toBe(200);
    expect((await clients.annotator.call('pairs.list', { filter: { alignmentId: bobGold }, offset: 0, limit: 10 })).status).toBe(403);
    expect((await queue(bobGold, clients.adjudicator)).status).toBe(200);
  });

  test("an annotator's review queue filter by annotator is their own, whatever the page sent", async () => {
    const ids = async (client: Client, annotator: string) =>
      (
        (await (await client.call('queue.list', { alignmentId: team.modelId, annotator, offset: 0, limit: 10 })).json()) as {
          items: { id: number }[];
        }
      ).items.map((i) => i.id);
    const [p1, p2] = team.pairIds;
    expect(await ids(clients.annotator, 'bob')).toEqual([p1]);
    expect(await ids(clients.adjudicator, 'bob')).toEqual([p2]);
  });

  test("the adjudicator sees every annotator's gold of a pair; an annotator does not", async () => {
    const [p1] = team.pairIds;
    const detail = (await (await clients.adjudicator.call('pairs.get', { id: p1 })).json()) as { alignments: { alignmentId: number }[] };
    expect(detail.alignments.map((a) => a.alignmentId)).toContain(goldIdOf(team.ctx.store!, 'ann'));
    expect((await clients.bob.call('pairs.get', { id: p1 })).status).toBe(403);
  });
});

test('the single-user server is unchanged: one token, no accounts, no role table', async () => {
  const ctx = createContext('browser', 'solo', dir);
  const server = await startServer(ctx);
  try {
    const base = `http://127.0.0.1:${server.port}`;
    expect(server.url).toMatch(/\?token=[\w-]{20,}$/);
    expect(await (await fetch(`${base}/auth/session`)).json()).toEqual({ team: false });
    expect((await fetch(`${base}/auth/login`, { method: 'POST', body: '{}' })).status).toBe(404);
    const set = await fetch(`${base}/api/settings.setAnnotator`, {
      method: 'POST',
      headers: { 'x-mekong-token': server.token, 'content-type': 'application/json' },
      body: JSON.stringify({ annotator: 'lin' }),
    });
    expect(set.status).toBe(200);
    expect(ctx.annotator).toBe('lin');
  } finally {
    await server.close();
  }
});
