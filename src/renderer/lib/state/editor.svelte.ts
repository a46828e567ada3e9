// The alignment editor's state: the open pair (with the annotator's gold layer and the
// model layers), the view (line or matrix), the keyboard cursor and the token selection,
// the suggestion source and threshold. Every change goes to the Node side one at a time,
// in order (each computed from the pair as the previous change left it); `saveState` is
// 'saved' only once all of them were committed and answered. A project opened read-only
// (`readOnly`) can be browsed here, and no change is sent.
import type { AlignmentInfo, MekongApi } from '../../../shared/api.ts';
import type { EditorPair, SegmentationFixSpec, TokenSide } from '../../../shared/editor-api.ts';
import type { PairStatus } from '../../../shared/domain.ts';
import { keySet, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import { errorMessage, isUnreachable } from '../api/api-error.ts';
import { addLinks, type GoldLayer } from '../editor/link-ops.ts';
import { mergeSpec, splitSpec } from '../editor/fix-context.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';

export type EditorMode = 'line' | 'matrix';

const RETRY_MS = 2000;
const UNREACHABLE = 'The Mekong server is not answering. Your changes are kept here and sent again as soon as it is back.';
export type SaveState = 'saved' | 'saving' | 'error';
/** The pair after (step 1) or before (step −1) `pairId` in the order the editor was opened from, or null at an end. */
export type NextPair = (pairId: number, step: 1 | -1) => Promise<number | null>;

export interface Cursor {
  side: TokenSide;
  index: number;
}

export class EditorState {
  pair = $state<EditorPair | null>(null);
  mode = $state<EditorMode>('line');
  saveState = $state<SaveState>('saved');
  error = $state<string | null>(null);
  cursor = $state<Cursor>({ side: 'src', index: 0 });
  cell = $state({ s: 0, t: 0 });
  selected = $state<{ src: number[]; tgt: number[] }>({ src: [], tgt: [] });
  modelId = $state<number | null>(null);
  /** Bulk-accept threshold of the open pair: back to the default on every other pair. */
  threshold = $state(LINK_THRESHOLD);
  zoom = $state(1);
  /** The suggestion under the mouse (or keyboard focus) in the list: its tokens and link light up in the views. */
  hovered = $state<LinkRef | null>(null);
  /** The project's link tags: keys 1–9 set them. */
  linkTags = $state<string[]>([]);
  /** The line view wraps long pairs over several bands (else one row that scrolls sideways). */
  wrap = $state(true);
  help = $state(false);
  /** A warning about the open pair that the next Enter confirms (no links yet, open suggestions). */
  warning = $state<string | null>(null);
  /** The project is open read-only: the pair can be looked at, and every change is ignored. */
  readOnly = $state(false);
  /** The token whose split point is being picked. */
  splitting = $state<Cursor | null>(null);
  /** The merge or split just saved on the open pair: the editor offers to apply it to its other occurrences. */
  lastFix = $state<{ side: TokenSide; fix: SegmentationFixSpec } | null>(null);

  readonly layer: GoldLayer = $derived({ links: this.pair?.gold ?? [], untranslated: this.pair?.untranslated ?? [] });
  readonly modelLinks: Link[] = $derived(this.pair?.alignments.find((a) => a.alignmentId === this.modelId)?.links ?? []);
  /** Model links not in gold, never rejected and not on a "not translated" token, most confident first. */
  readonly suggestions: Link[] = $derived.by(() => {
    const pair = this.pair;
    if (!pair) return [];
    const skip = keySet([...pair.gold, ...pair.rejected]);
    const mute = new Set(pair.untranslated.map((m) => `${m.side}:${m.index}`));
    return this.modelLinks
      .filter((l) => !skip.has(linkKey(l.s, l.t)) && !mute.has(`src:${l.s}`) && !mute.has(`tgt:${l.t}`))
      .sort((a, b) => (b.score ?? 1) - (a.score ?? 1) || a.s - b.s || a.t - b.t);
  });

  /** The newest model alignment the editor has seen: a newer one becomes the suggestion source. */
  private newestModel = 0;
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  private failed = false;
  private nextPair: NextPair = async () => null;

  constructor(
    private readonly api: MekongApi,
    /** Called after a change that alters counts (status) or layers (the header and lists re-read). */
    private readonly onEdited: () => void,
  ) {}

  async open(pairId: number, next?: NextPair): Promise<void> {
    if (next) this.nextPair = next;
    if (this.pair?.id !== pairId) {
      this.threshold = LINK_THRESHOLD;
      this.warning = null;
      this.lastFix = null;
    }
    await this.enqueue(() => this.api.invoke('editor.get', { pairId }));
    this.cursor = { side: 'src', index: 0 };
    this.cell = { s: 0, t: 0 };
    this.clearSelection();
  }

  /**
   * Follows the project's alignments: a model alignment newer than any seen (Align…, a
   * re-alignment) becomes the suggestion source and the open pair is re-read, so suggestions
   * never come from an older alignment than the one the review queue ranks by; a deleted
   * source falls back to the newest.
   */
  syncAlignments(alignments: readonly AlignmentInfo[]): void {
    const models = alignments.filter((a) => a.origin !== 'gold');
    const newest = models.reduce((m, a) => Math.max(m, a.id), 0);
    if (newest > this.newestModel) {
      this.newestModel = newest;
      this.modelId = newest;
      const open = this.pair;
      if (open && !open.alignments.some((a) => a.alignmentId === newest))
        void this.enqueue(() => this.api.invoke('editor.get', { pairId: open.id }));
    } else if (this.modelId !== null && !models.some((a) => a.id === this.modelId)) {
      this.modelId = newest || null;
    }
  }

  clearSelection(): void {
    this.selected = { src: [], tgt: [] };
  }

  /** Changes the gold layer: `change` gets the layer as the previous change left it. */
  editGold(change: (layer: GoldLayer) => GoldLayer): Promise<void> {
    return this.edit(async () => {
      const pair = this.pair;
      if (!pair) return null;
      const next = change({ links: pair.gold, untranslated: pair.untranslated });
      const saved = await this.api.invoke('editor.setGold', { pairId: pair.id, links: next.links, untranslated: next.untranslated });
      // The annotator's first link created their gold alignment: the project's lists must show it.
      if (pair.goldId === null && saved.goldId !== null) this.onEdited();
      return saved;
    });
  }

  accept(links: readonly Link[]): Promise<void> {
    return this.editGold((layer) =>
      addLinks(
        layer,
        links.map((l) => ({ s: l.s, t: l.t, kind: l.kind })),
      ),
    );
  }

  acceptAbove(threshold: number): Promise<void> {
    return this.accept(this.suggestions.filter((l) => (l.score ?? 1) >= threshold));
  }

  reject(links: readonly LinkRef[]): Promise<void> {
    return this.edit(async () => {
      const pair = this.pair;
      if (!pair || links.length === 0) return null;
      return this.api.invoke('editor.setRejected', {
        pairId: pair.id,
        rejected: [...pair.rejected, ...links.map(({ s, t }) => ({ s, t }))],
      });
    });
  }

  split(side: TokenSide, index: number, at: number): Promise<void> {
    return this.edit(async () => {
      const pair = this.pair;
      if (!pair) return null;
      const fix = splitSpec(side === 'src' ? pair.srcTokens : pair.tgtTokens, index, at);
      const saved = await this.api.invoke('tokens.split', { pairId: pair.id, side, index, at });
      if (fix) this.lastFix = { side, fix };
      return saved;
    });
  }

  merge(side: TokenSide, index: number): Promise<void> {
    return this.edit(async () => {
      const pair = this.pair;
      const count = side === 'src' ? pair?.srcTokens.length : pair?.tgtTokens.length;
      if (!pair || count === undefined || index + 1 >= count) return null;
      const fix = mergeSpec(side === 'src' ? pair.srcTokens : pair.tgtTokens, index);
      const saved = await this.api.invoke('tokens.merge', { pairId: pair.id, side, index });
      if (fix) this.lastFix = { side, fix };
      return saved;
    });
  }

  /** Reads the open pair again (after a change made elsewhere, e.g. a fix applied corpus-wide). */
  reload(): Promise<void> {
    return this.enqueue(async () => {
      const pair = this.pair;
      if (!pair) return null;
      const read = await this.api.invoke('editor.get', { pairId: pair.id });
      this.onEdited();
      return read;
    });
  }

  undo(): Promise<void> {
    return this.reverse('edits.undo');
  }

  redo(): Promise<void> {
    return this.reverse('edits.redo');
  }

  async setStatus(status: PairStatus): Promise<boolean> {
    const pair = this.pair;
    if (!pair || this.readOnly) return false;
    let ok = true;
    await this.edit(async () => {
      await this.api.invoke('pairs.update', { id: pair.id, status }).catch((err: unknown) => {
        ok = false;
        throw err;
      });
      return this.api.invoke('editor.get', { pairId: pair.id });
    });
    this.onEdited();
    return ok;
  }

  /** Saves the open pair's note (one logged edit; the pair list shows it). */
  async setNote(note: string): Promise<void> {
    const pair = this.pair;
    if (!pair || note === pair.note || this.readOnly) return;
    await this.edit(async () => {
      await this.api.invoke('pairs.update', { id: pair.id, note });
      return this.api.invoke('editor.get', { pairId: pair.id });
    });
    this.onEdited();
  }

  /**
   * Marks the pair done and opens the next one (Enter). A pair with no links and no "not
   * translated" mark, or with suggestions still open, is not done at once: a warning says
   * so, and Enter again confirms.
   */
  async doneAndNext(): Promise<void> {
    const pair = this.pair;
    if (!pair || this.readOnly) return;
    const why =
      this.layer.links.length === 0 && this.layer.untranslated.length === 0
        ? 'This pair has no links yet.'
        : this.suggestions.length > 0
          ? `${this.suggestions.length} suggestion${this.suggestions.length === 1 ? ' is' : 's are'} still open.`
          : null;
    if (why && this.warning === null) {
      this.warning = `${why} Press Enter again to mark it done anyway.`;
      return;
    }
    this.warning = null;
    if (!(await this.setStatus('done'))) return;
    const next = await this.nextPair(pair.id, 1);
    if (next !== null) await this.open(next);
  }

  /** Opens the next (1) or previous (−1) pair without changing this one's status (PgDn / PgUp). */
  async go(step: 1 | -1): Promise<void> {
    const pair = this.pair;
    if (!pair) return;
    const to = await this.nextPair(pair.id, step);
    if (to !== null) await this.open(to);
  }

  /** Undo and redo act on the annotator's newest edit, which may be on another pair: that pair is shown. */
  private reverse(channel: 'edits.undo' | 'edits.redo'): Promise<void> {
    return this.edit(async () => {
      const { pair } = await this.api.invoke(channel, {});
      this.onEdited();
      return pair;
    });
  }

  /** A change: queued as every call is, or ignored when the project is read-only. */
  private edit(work: () => Promise<EditorPair | null>): Promise<void> {
    return this.readOnly ? Promise.resolve() : this.enqueue(work);
  }

  /**
   * Runs `work` after every change before it. While the server cannot be reached the change
   * is kept and sent again every RETRY_MS (each change sets a whole layer, so sending it twice
   * is harmless), the editor saying so; changes after it wait their turn.
   */
  private enqueue(work: () => Promise<EditorPair | null>): Promise<void> {
    this.pending++;
    this.saveState = 'saving';
    const persistent = async (): Promise<EditorPair | null> => {
      for (;;) {
        try {
          const pair = await work();
          if (this.error === UNREACHABLE) this.error = null;
          return pair;
        } catch (err) {
          if (!isUnreachable(err)) throw err;
          this.error = UNREACHABLE;
          await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
        }
      }
    };
    const run = this.chain.then(persistent).then(
      (pair) => {
        if (pair) this.pair = pair;
      },
      (err: unknown) => {
        this.failed = true;
        this.error = errorMessage(err);
      },
    );
    this.chain = run.finally(() => {
      this.pending--;
      if (this.pending === 0) {
        this.saveState = this.failed ? 'error' : 'saved';
        this.failed = false;
      }
    });
    return this.chain;
  }
}
