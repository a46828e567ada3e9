// A token split in the editor on a real project (the bundled Lao–Thai sample, imported and
// aligned by IBM1 through the API): the model's links of the split token go to neither half
// — in the answer and after reopening the file — and the editor lists them for the linguist
// to place; the linguist's own gold link goes to both halves; suggestions show the tokens'
// current text.
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { createContext } from '../../../src/main/api/create-context.ts';
import { dispatch } from '../../../src/main/api/dispatch.ts';
import { editorPair } from '../../../src/main/review/editor.ts';
import { ProjectStore } from '../../../src/main/store/project-store.ts';
import { EditorState } from '../../../src/renderer/lib/state/editor.svelte.ts';
import { dispatchApi } from '../helpers/dispatch-api.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const SAMPLE = join(import.meta.dirname, '../../../resources/sample/vientiane-thaiembassy-sent.csv');
const dir = tempDir('mekong-split-model-');
const ctx: AppContext = createContext('browser', 'lin', dir);

afterAll(() => ctx.store?.close());

async function job(channel: 'import.start' | 'align.start', input: unknown): Promise<void> {
  const finished = new Promise<void>((resolve, reject) => {
    const off = ctx.jobs.onEvent((e) => {
      if (e.type === 'job.progress') return;
      off();
      if (e.type === 'job.done') resolve();
      else reject(new Error(`${channel}: ${e.type}`));
    });
  });
  const r = await dispatch(ctx, channel, input);
  if (!r.ok) throw new Error(r.error.error);
  await finished;
}

test("a split token's model links go to neither half, its gold link to both; the suggestions show the halves' text", async () => {
  const path = join(dir, 'split.mekong');
  expect(await dispatch(ctx, 'project.create', { path, name: 'split', srcLang: 'lo', tgtLang: 'th' })).toMatchObject({ ok: true });
  await job('import.start', { file: SAMPLE, format: 'csv', header: true, srcColumn: 'lao_sent', tgtColumn: 'thai_sent' });
  await job('align.start', { method: 'ibm1', sym: 'gdfa' });
  const store = ctx.store!;
  const ed = new EditorState(dispatchApi(ctx), () => {});
  ed.syncAlignments((await dispatchApi(ctx).invoke('project.info', {}))!.alignments);
  expect(ed.modelId).not.toBeNull();

  // A Lao token of several syllables that the model linked, with a neighbour it did not link to the same target.
  const first = store.listPairs({}, 0, 1).pairs[0].id;
  await ed.open(first);
  const pair = ed.pair!;
  const index = pair.srcTokens.findIndex((tok, i) => tok.text.length >= 4 && ed.modelLinks.some((l) => l.s === i));
  expect(index).toBeGreaterThanOrEqual(0);
  const word = pair.srcTokens[index].text;
  const modelOf = (links: readonly { s: number; t: number }[], s: number) =>
    links
      .filter((l) => l.s === s)
      .map((l) => l.t)
      .sort((a, b) => a - b);
  const before = modelOf(ed.modelLinks, index);
  const after = ed.modelLinks.filter((l) => l.s > index).map((l) => `${l.s + 1}-${l.t}`);
  // The linguist links the token to the first target the model gave it, then splits it.
  ed.cursor = { side: 'src', index };
  await ed.editGold((layer) => ({ ...layer, links: [{ s: index, t: before[0], kind: 'sure', score: null }] }));
  const at = Math.floor(word.length / 2);
  await ed.split('src', index, at);

  const check = (p: ReturnType<typeof editorPair>) => {
    expect(p.srcTokens[index].text + p.srcTokens[index + 1].text).toBe(word);
    const model = p.alignments.find((a) => a.alignmentId === ed.modelId)!.links;
    expect(modelOf(model, index)).toEqual([]);
    expect(modelOf(model, index + 1)).toEqual([]);
    expect(model.filter((l) => l.s > index + 1).map((l) => `${l.s}-${l.t}`)).toEqual(after);
    expect(p.gold.map((l) => `${l.s}-${l.t}`)).toEqual([`${index}-${before[0]}`, `${index + 1}-${before[0]}`]);
  };
  check(ed.pair!);
  // The model's links of the split token are listed for review, with the old token's text.
  expect(ed.splitReview).toMatchObject({ side: 'src', index, text: word });
  expect(ed.splitReview!.links.map((l) => l.t).sort((a, b) => a - b)).toEqual(before);
  // Every suggestion shows its tokens' text as the pair has it now.
  for (const row of ed.suggestionRows) {
    expect(row.src).toBe(ed.pair!.srcTokens[row.link.s].text);
    expect(row.tgt).toBe(ed.pair!.tgtTokens[row.link.t].text);
  }
  expect(ed.suggestionRows.some((r) => r.src === word)).toBe(false);

  // Reopened from the file: the same, no copy of the model's link on either half.
  ctx.store!.close();
  const reopened = ProjectStore.open(path);
  ctx.store = reopened;
  check(editorPair(reopened, 'lin', first));

  // The linguist says the right half is the one: its link, as the model gave it, joins gold.
  await ed.placeSplitLinks(1);
  await expect.poll(() => ed.saveState).toBe('saved');
  expect(ed.splitReview).toBeNull();
  const gold = editorPair(reopened, 'lin', first).gold.map((l) => `${l.s}-${l.t}`);
  for (const t of before) expect(gold).toContain(`${index + 1}-${t}`);
});
