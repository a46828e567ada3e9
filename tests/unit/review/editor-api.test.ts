// The editor's channels through the real dispatch (schema validation, handlers, errors),
// on a project file made with the test fixture.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { model, project } from './fixture.ts';

const dir = tempDir('mekong-editor-api-');

describe('editor channels', () => {
  test("validate input, edit the annotator's gold layer and report errors as input errors", async () => {
    const { store, ids } = project(dir, [
      ['a b', 'x y'],
      ['a', 'x'],
    ]);
    const m = model(store, ids, [
      [
        [0, 0, 0.9],
        [1, 1, 0.5],
      ],
      [[0, 0, 0.8]],
    ]);
    const ctx = { ...createContext('browser', 'lin', dir), store };
    const bad = await dispatch(ctx, 'editor.setGold', {
      pairId: ids[0],
      links: [{ s: 0, t: 0, kind: 'maybe', score: null }],
      untranslated: [],
    });
    expect(bad).toMatchObject({ ok: false, error: { kind: 'input' } });
    const outside = await dispatch(ctx, 'editor.setGold', {
      pairId: ids[0],
      links: [{ s: 9, t: 0, kind: 'sure', score: null }],
      untranslated: [],
    });
    expect(outside).toMatchObject({ ok: false, error: { kind: 'input', error: expect.stringMatching(/outside/) } });
    const set = await dispatch(ctx, 'editor.setGold', {
      pairId: ids[0],
      links: [{ s: 0, t: 0, kind: 'sure', score: null }],
      untranslated: [{ side: 'tgt', index: 1 }],
    });
    expect(set).toMatchObject({ ok: true, value: { gold: [{ s: 0, t: 0 }], untranslated: [{ side: 'tgt', index: 1 }] } });
    const lex = await dispatch(ctx, 'lexicon.list', { limit: 10 });
    expect(lex).toMatchObject({
      ok: true,
      value: {
        modelId: m,
        entries: [
          { src: 'a', tgt: 'x', gold: 1, model: 2 },
          { src: 'b', tgt: 'y', gold: 0, model: 1 },
        ],
      },
    });
    const queue = await dispatch(ctx, 'queue.list', { alignmentId: m, offset: 0, limit: 5 });
    expect(queue).toMatchObject({ ok: true, value: { total: 2, items: [{ id: ids[0] }, { id: ids[1] }] } });
    expect(await dispatch(ctx, 'agreement.report', { reference: 999, candidate: m })).toMatchObject({
      ok: false,
      error: { kind: 'input' },
    });
    expect(await dispatch(ctx, 'editor.get', { pairId: 999 })).toMatchObject({ ok: false, error: { kind: 'input' } });
    store.close();
  });

  test('names that are not theirs, indices past a token and unknown alignments are input errors (400), not crashes', async () => {
    const { store, ids } = project(dir, [['abc d', 'x y']]);
    const ctx = { ...createContext('browser', 'lin', dir), store };
    const input = { kind: 'input' };
    for (const method of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(await dispatch(ctx, 'align.start', { method, sym: 'gdfa' }), method).toMatchObject({
        ok: false,
        error: { ...input, error: expect.stringMatching(/unknown method/) },
      });
    }
    for (const sym of ['__proto__', 'constructor', 'valueOf']) {
      expect(await dispatch(ctx, 'align.start', { method: 'ibm1', sym }), sym).toMatchObject({
        ok: false,
        error: { ...input, error: expect.stringMatching(/unknown symmetrisation/) },
      });
    }
    expect(await dispatch(ctx, 'tokens.split', { pairId: ids[0], side: 'src', index: 0, at: 7 })).toMatchObject({
      ok: false,
      error: input,
    });
    expect(await dispatch(ctx, 'tokens.merge', { pairId: ids[0], side: 'src', index: 1 })).toMatchObject({ ok: false, error: input });
    expect(await dispatch(ctx, 'queue.list', { alignmentId: 4242, offset: 0, limit: 5 })).toMatchObject({
      ok: false,
      error: { ...input, error: 'no alignment #4242 in this project' },
    });
    const notProject = join(dir, 'plain.txt');
    writeFileSync(notProject, 'plain text, not a project');
    expect(await dispatch(ctx, 'project.open', { path: notProject })).toMatchObject({
      ok: false,
      error: { ...input, error: expect.stringMatching(/not a Mekong project/) },
    });
    expect(await dispatch(ctx, 'project.open', { path: dir })).toMatchObject({ ok: false, error: input });
    store.close();
  });
});
