// Which part of the project screen is shown (the pair list, the editor, the review
// queue, the lexicon, the agreement report, the models or mining) and the one editor they all open
// pairs in. The list and the queue each hand the editor their own "next pair" for Enter.
// The queue's state lives here so other views can open it on a chosen model alignment.
import type { MekongApi, PairFilter } from '../../../shared/api.ts';
import { EditorState, type NextPair } from './editor.svelte.ts';
import { QueueState } from './queue.svelte.ts';

export type View = 'pairs' | 'editor' | 'queue' | 'lexicon' | 'agreement' | 'models' | 'mining';

export class WorkspaceState {
  view = $state<View>('pairs');
  readonly editor: EditorState;
  readonly queue: QueueState;

  constructor(
    private readonly api: MekongApi,
    onEdited: () => void,
  ) {
    this.editor = new EditorState(api, onEdited);
    this.queue = new QueueState(api);
  }

  /** Shows the review queue ranked by uncertainty under model alignment `alignmentId` (the view loads it); the editor's suggestions follow it. */
  openQueue(alignmentId: number): void {
    this.queue.alignmentId = alignmentId;
    this.queue.versusId = null;
    // The editor suggests from the alignment the queue ranks by.
    this.editor.modelId = alignmentId;
    this.view = 'queue';
  }

  /** Opens a pair in the editor; Enter then walks `next` (default: id order under `filter`). */
  async openPair(pairId: number, next?: NextPair): Promise<void> {
    this.view = 'editor';
    await this.editor.open(pairId, next);
  }

  /** The pair after (or before) `pairId` in id order among those matching `filter`; `onIndex` gets its list position. */
  nextInList(filter: PairFilter, index: () => number, onIndex: (index: number) => void): NextPair {
    return async (pairId, step) => {
      const offset = Math.max(0, index() - 2);
      const res = await this.api.invoke('pairs.list', { filter, offset, limit: 5 });
      const at = step === 1 ? res.pairs.findIndex((p) => p.id > pairId) : res.pairs.findLastIndex((p) => p.id < pairId);
      if (at < 0) return null;
      onIndex(offset + at);
      return res.pairs[at].id;
    };
  }

  /** The pair after (or before) `pairId` in a fixed order (the review queue's, the concordance's). */
  nextInOrder(ids: readonly number[]): NextPair {
    return async (pairId, step) => {
      const at = ids.indexOf(pairId);
      const to = at + step;
      return at >= 0 && to >= 0 && to < ids.length ? ids[to] : null;
    };
  }
}
