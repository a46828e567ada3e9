// The editor's keyboard over its real state class and the real API: each key's command
// changes the annotator's gold layer in the project file as the shortcuts table says; in a
// read-only project only the keys that look do anything.
// EditorState talks to dispatch() directly (the transport both IPC and HTTP end in).
import { describe, expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { editorPair } from '../../../src/main/review/editor.ts';
import { handleEditorKey, pickToken, runCommand } from '../../../src/renderer/lib/editor/editor-keys.ts';
import { EditorState } from '../../../src/renderer/lib/state/editor.svelte.ts';
import { model, project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';

const dir = tempDir('mekong-keys-');

function setUp() {
  const { store, ids } = project(dir, [
    ['a b c', 'x y z'],
    ['d', 'w'],
  ]);
  const m = model(store, ids, [
    [
      [0, 0, 0.95],
      [1, 1, 0.6],
      [2, 2, 0.91],
    ],
    [[0, 0, 0.5]],
  ]);
  const ctx = { ...createContext('browser', 'lin', dir), store };
  const api = dispatchApi(ctx);
  let edited = 0;
  const ed = new EditorState(api, () => edited++);
  const gold = (id = ids[0]) => editorPair(store, 'lin', id).gold.map((l) => `${l.s}-${l.t}${l.kind === 'possible' ? 'p' : ''}`);
  return { store, ids, m, ed, gold, edited: () => edited };
}

const key = (k: string, mods: Partial<KeyboardEvent> = {}) =>
  ({ key: k, ctrlKey: false, metaKey: false, altKey: false, shiftKey: false, ...mods }) as KeyboardEvent;
/** Every change sent so far committed and answered (the editor's own save state). */
const settle = (ed: EditorState) => expect.poll(() => ed.saveState).toBe('saved');

describe('editor keys', () => {
  test('Space selects, then links across; P flips, Delete removes, N marks, Ctrl+Z undoes', async () => {
    const { ed, ids, gold, store } = setUp();
    await ed.open(ids[0]);
    expect(handleEditorKey(ed, key(' '))).toBe(true); // select src 0
    expect(ed.selected.src).toEqual([0]);
    handleEditorKey(ed, key('ArrowDown')); // to the target side
    expect(ed.cursor).toEqual({ side: 'tgt', index: 0 });
    handleEditorKey(ed, key('ArrowRight'));
    handleEditorKey(ed, key(' ')); // link 0-1
    await settle(ed);
    expect(gold()).toEqual(['0-1']);
    expect(ed.selected).toEqual({ src: [], tgt: [] });
    handleEditorKey(ed, key('p'));
    await settle(ed);
    expect(gold()).toEqual(['0-1p']);
    handleEditorKey(ed, key('Delete'));
    await settle(ed);
    expect(gold()).toEqual([]);
    handleEditorKey(ed, key('n'));
    await settle(ed);
    expect(editorPair(store, 'lin', ids[0]).untranslated).toEqual([{ side: 'tgt', index: 1 }]);
    handleEditorKey(ed, key('z', { ctrlKey: true }));
    await settle(ed);
    expect(editorPair(store, 'lin', ids[0]).untranslated).toEqual([]);
    expect(handleEditorKey(ed, key('q'))).toBe(false);
    expect(handleEditorKey(ed, key('p', { altKey: true }))).toBe(false);
  });

  test('A accepts and R rejects the suggestions at the cursor; the matrix toggles its cell', async () => {
    const { ed, ids, gold, store, m } = setUp();
    await ed.open(ids[0]);
    expect(ed.modelId).toBeNull();
    ed.modelId = m;
    runCommand(ed, 'a'); // cursor on src 0: suggestion 0-0
    await settle(ed);
    expect(gold()).toEqual(['0-0']);
    handleEditorKey(ed, key('ArrowRight'));
    runCommand(ed, 'r'); // src 1: suggestion 1-1 rejected
    await settle(ed);
    expect(editorPair(store, 'lin', ids[0]).rejected).toEqual([{ s: 1, t: 1 }]);
    expect(ed.suggestions.map((l) => `${l.s}-${l.t}`)).toEqual(['2-2']);
    runCommand(ed, 'v');
    expect(ed.mode).toBe('matrix');
    expect(ed.cell).toEqual({ s: 1, t: 0 }); // the matrix cursor follows the line cursor's row
    handleEditorKey(ed, key('ArrowRight'));
    handleEditorKey(ed, key(' ')); // cell 1-1
    await settle(ed);
    expect(gold()).toEqual(['0-0', '1-1']);
  });

  test('Enter marks the pair done and opens the next; the threshold returns to its default there', async () => {
    const { ed, ids, store } = setUp();
    await ed.open(ids[0], async (id, step) => (step === 1 ? (id === ids[0] ? ids[1] : null) : id === ids[1] ? ids[0] : null));
    ed.threshold = 0.3;
    runCommand(ed, 'Enter'); // no links yet: a warning, nothing marked
    expect(ed.warning).toMatch(/no links yet\. Press Enter again/);
    expect(store.getPair(ids[0]).status).toBe('new');
    runCommand(ed, 'Enter');
    await expect.poll(() => ed.pair?.id).toBe(ids[1]);
    expect(ed.warning).toBeNull();
    expect(store.getPair(ids[0]).status).toBe('done');
    expect(ed.threshold).toBe(0.9);
    runCommand(ed, 'PageUp');
    await expect.poll(() => ed.pair?.id).toBe(ids[0]);
    runCommand(ed, 'PageDown');
    await expect.poll(() => ed.pair?.id).toBe(ids[1]);
    expect(store.getPair(ids[1]).status).toBe('new');
  });

  test('Home/End reach the ends; ↓ lands on the gold, else the suggested, else the nearest token; Shift+→ selects for a one-to-two link', async () => {
    const { ed, ids, gold, m } = setUp();
    await ed.open(ids[0]);
    handleEditorKey(ed, key('End'));
    expect(ed.cursor).toEqual({ side: 'src', index: 2 });
    handleEditorKey(ed, key('Home'));
    expect(ed.cursor).toEqual({ side: 'src', index: 0 });
    handleEditorKey(ed, key('ArrowRight'));
    handleEditorKey(ed, key('ArrowDown')); // no link, no model chosen: the token at the same position
    expect(ed.cursor).toEqual({ side: 'tgt', index: 1 });
    ed.modelId = m;
    ed.cursor = { side: 'src', index: 0 };
    await ed.editGold((layer) => ({ ...layer, links: [{ s: 0, t: 2, kind: 'sure', score: null }] }));
    handleEditorKey(ed, key('ArrowDown')); // gold 0-2 beats the model's 0-0
    expect(ed.cursor).toEqual({ side: 'tgt', index: 2 });
    ed.cursor = { side: 'src', index: 2 };
    handleEditorKey(ed, key('ArrowDown')); // the model's 2-2
    expect(ed.cursor).toEqual({ side: 'tgt', index: 2 });
    // One to two: Space, ↓, Shift+→, Space.
    ed.cursor = { side: 'src', index: 1 };
    for (const k of [key(' '), key('ArrowDown'), key('ArrowRight', { shiftKey: true }), key(' ')]) handleEditorKey(ed, k);
    await settle(ed);
    expect(gold()).toEqual(['0-2', '1-1', '1-2']);
    ed.mode = 'matrix';
    handleEditorKey(ed, key('End'));
    expect(ed.cell).toEqual({ s: ed.cell.s, t: 2 });
  });

  test('a selection left from earlier is cleared by any other command, so a later click cannot link it', async () => {
    const { ed, ids, gold } = setUp();
    await ed.open(ids[0]);
    handleEditorKey(ed, key(' ')); // select src 0
    runCommand(ed, 'n'); // another command: the selection goes
    expect(ed.selected).toEqual({ src: [], tgt: [] });
    await settle(ed);
    handleEditorKey(ed, key('ArrowDown'));
    handleEditorKey(ed, key(' ')); // selects tgt 0 only, links nothing
    await settle(ed);
    expect(gold()).toEqual([]);
  });

  test('a read-only project: keys and calls that would edit do nothing; moving, views and the next pair work', async () => {
    const { ed, ids, gold, store, edited } = setUp();
    await ed.open(ids[0], async (id, step) => (step === 1 && id === ids[0] ? ids[1] : null));
    ed.readOnly = true;
    for (const k of [' ', 'p', 'Delete', 'n', 'a', 'r', 's', 'm', '1', '0', 'Enter']) expect(runCommand(ed, k)).toBe(false);
    expect(handleEditorKey(ed, key('z', { ctrlKey: true }))).toBe(false);
    pickToken(ed, 'src', 1, false);
    expect(ed.selected).toEqual({ src: [], tgt: [] });
    await ed.editGold((layer) => ({ ...layer, links: [{ s: 0, t: 0, kind: 'sure', score: null }] }));
    await ed.accept(ed.suggestions);
    await ed.reject(ed.suggestions);
    await ed.merge('src', 0);
    expect(await ed.setStatus('done')).toBe(false);
    await ed.setNote('not kept');
    await ed.undo();
    expect(ed.splitting).toBeNull();
    expect(ed.error).toBeNull();
    expect(gold()).toEqual([]);
    expect(store.getPair(ids[0])).toMatchObject({ status: 'new', note: '', srcTokens: [{ text: 'a' }, { text: 'b' }, { text: 'c' }] });
    expect(edited()).toBe(0);

    expect(handleEditorKey(ed, key('ArrowRight'))).toBe(true);
    expect(ed.cursor).toEqual({ side: 'src', index: 1 });
    expect(runCommand(ed, 'v')).toBe(true);
    expect(ed.mode).toBe('matrix');
    expect(runCommand(ed, 'PageDown')).toBe(true);
    await expect.poll(() => ed.pair?.id).toBe(ids[1]);
  });
});
