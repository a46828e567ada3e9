// The editor's state over the real API of a real project file: gold edits made while the
// server does not answer show at once as pending and apply as the linguist sees them (a
// second click on a pending link cancels it locally); Enter's "press Enter again" holds only
// for the exact state it warned about.
import { describe, expect, test } from 'vitest';
import type { MekongApi } from '../../../src/shared/api.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { editorPair } from '../../../src/main/review/editor.ts';
import { ApiError } from '../../../src/renderer/lib/api/api-error.ts';
import { pickToken, runCommand } from '../../../src/renderer/lib/editor/editor-keys.ts';
import { EditorState } from '../../../src/renderer/lib/state/editor.svelte.ts';
import { model, project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';

const dir = tempDir('mekong-pending-');

function setUp() {
  const { store, ids } = project(dir, [
    ['a b c', 'x y z'],
    ['d', 'w'],
  ]);
  const m = model(store, ids, [
    [
      [0, 0, 0.95],
      [2, 2, 0.91],
    ],
    [[0, 0, 0.5]],
  ]);
  const ctx = { ...createContext('browser', 'lin', dir), store };
  const real = dispatchApi(ctx);
  // The transport of a server that stopped answering: every call fails as "unreachable".
  const net = { down: false, calls: 0 };
  const api: MekongApi = {
    invoke(channel, input) {
      net.calls++;
      if (net.down) return Promise.reject(new ApiError({ error: 'Failed to fetch', kind: 'unreachable' }));
      return real.invoke(channel, input);
    },
    onEvent: real.onEvent,
  };
  const ed = new EditorState(api, () => {});
  const gold = (id = ids[0]) => editorPair(store, 'lin', id).gold.map((l) => `${l.s}-${l.t}`);
  const shown = () => ed.layer.links.map((l) => `${l.s}-${l.t}`).sort();
  return { store, ids, m, ed, gold, shown, net };
}

const link = (ed: EditorState, s: number, t: number) => {
  pickToken(ed, 'src', s, false);
  pickToken(ed, 'tgt', t, false);
};

describe('edits while the server does not answer', () => {
  test('a link shows at once as pending; clicking it again cancels it locally; the file gets what the screen shows', async () => {
    const { ed, ids, gold, shown, net } = setUp();
    await ed.open(ids[0]);
    net.down = true;
    link(ed, 0, 0);
    expect(shown()).toEqual(['0-0']);
    expect([...ed.pendingLinks]).toHaveLength(1);
    await expect.poll(() => ed.offline).toBe(true);
    expect(ed.pendingEdits).toBe(1);

    link(ed, 0, 0); // the same two tokens again: the pending link goes, nothing is queued for it
    expect(shown()).toEqual([]);
    expect(ed.pendingEdits).toBe(0);
    link(ed, 1, 1);
    link(ed, 2, 2);
    link(ed, 1, 1); // 1-1 cancelled, 2-2 stays
    expect(shown()).toEqual(['2-2']);
    expect(ed.pendingEdits).toBe(1);
    expect(ed.saveState).toBe('saving');

    net.down = false;
    await expect.poll(() => ed.saveState, { timeout: 10_000 }).toBe('saved');
    expect(ed.offline).toBe(false);
    expect(gold()).toEqual(['2-2']);
    expect(shown()).toEqual(['2-2']);
    expect(ed.pendingEdits).toBe(0);
  });

  test('removing a saved link while away and linking it again leaves it as it was; a pending accept leaves the suggestions', async () => {
    const { ed, ids, gold, shown, net, m } = setUp();
    await ed.open(ids[0]);
    ed.modelId = m;
    link(ed, 1, 0);
    await expect.poll(() => ed.saveState).toBe('saved');
    expect(gold()).toEqual(['1-0']);
    net.down = true;
    link(ed, 1, 0); // unlink
    expect(shown()).toEqual([]);
    expect(ed.pendingEdits).toBe(1);
    link(ed, 1, 0); // link again: back to what the file holds, nothing pending
    expect(ed.pendingEdits).toBe(0);
    expect(shown()).toEqual(['1-0']);
    runCommand(ed, 'a'); // cursor on src 0: accepts 0-0
    expect(shown()).toEqual(['0-0', '1-0']);
    expect(ed.suggestions.map((l) => `${l.s}-${l.t}`)).toEqual(['2-2']);
    net.down = false;
    await expect.poll(() => ed.saveState, { timeout: 10_000 }).toBe('saved');
    expect(gold()).toEqual(['0-0', '1-0']);
  });

  test('edits made on a pair left while the server was away reach that pair, not the one opened after it', async () => {
    const { ed, ids, gold, net } = setUp();
    await ed.open(ids[0]);
    net.down = true;
    link(ed, 2, 1);
    const opened = ed.open(ids[1]);
    link(ed, 0, 0); // still on the first pair: its tokens are shown until the next one arrives
    net.down = false;
    await opened;
    await expect.poll(() => ed.saveState, { timeout: 10_000 }).toBe('saved');
    expect(ed.pair?.id).toBe(ids[1]);
    expect(gold(ids[0])).toEqual(['0-0', '2-1']);
    expect(gold(ids[1])).toEqual([]);
    expect(ed.layer.links).toEqual([]);
  });
});

describe('Enter confirms only the state it warned about', () => {
  test('"no links yet", then a link with suggestions still open: Enter warns again instead of marking done', async () => {
    const { ed, ids, store, m } = setUp();
    await ed.open(ids[0], async () => ids[1]);
    ed.modelId = m;
    runCommand(ed, 'Enter');
    expect(ed.warning).toMatch(/no links yet/);
    link(ed, 1, 0); // a different state: the warning no longer holds
    expect(ed.warning).toBeNull();
    await expect.poll(() => ed.saveState).toBe('saved');
    runCommand(ed, 'Enter'); // two suggestions open: a new warning, not a confirmation
    expect(ed.warning).toMatch(/2 suggestions are still open/);
    expect(store.getPair(ids[0]).status).toBe('new');
    ed.cursor = { side: 'src', index: 0 };
    runCommand(ed, 'a'); // accepts 0-0: one suggestion left, the warning is about another state
    expect(ed.warning).toBeNull();
    runCommand(ed, 'Enter');
    expect(ed.warning).toMatch(/1 suggestion is still open/);
    await expect.poll(() => ed.saveState).toBe('saved');
    expect(store.getPair(ids[0]).status).toBe('new');
    runCommand(ed, 'Enter'); // the state warned about: confirmed
    await expect.poll(() => ed.pair?.id).toBe(ids[1]);
    expect(store.getPair(ids[0]).status).toBe('done');
  });
});
