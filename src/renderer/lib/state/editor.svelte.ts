// The alignment editor's state: the open pair (with the annotator's gold layer and the
// model layers), the view (line or matrix), the keyboard cursor and the token selection,
// the suggestion source and threshold. Every change goes to the Node side one at a time,
// in order; `saveState` is 'saved' only once all of them were committed and answered. A
// gold edit is applied on screen at once, as the intended state of each link it changes
// (lib/editor/pending-gold.ts): what the server has not committed yet is drawn as pending,
// and what is sent is the layer the linguist sees. A project opened read-only (`readOnly`)
// can be browsed here, and no change is sent. Each call that changes something carries a
// request id, the same every time the change is sent again after a lost answer, so the
// server runs it once (an undo sent twice would take back two edits).
import type { AlignmentInfo, CallOptions, MekongApi } from '../../../shared/api.ts';
import type { EditorPair, SegmentationFixSpec, TokenSide } from '../../../shared/editor-api.ts';
import type { PairStatus } from '../../../shared/domain.ts';
import { keySet, linkKey, type Link, type LinkRef } from '../../../shared/link-set.ts';
import { errorMessage, isUnreachable } from '../api/api-error.ts';
import { addLinks, type GoldLayer } from '../editor/link-ops.ts';
import { mergeSpec, splitSpec } from '../../../shared/fix-spec.ts';
import {
  noPending,
  pendingCount,
  pendingKeys,
  recordPending,
  stillPending,
  withPending,
  type PendingGold,
} from '../editor/pending-gold.ts';
import { LINK_THRESHOLD } from '../../../shared/link-score.ts';

export type EditorMode = 'line' | 'matrix';

const RETRY_MS = 2000;
/** This page's prefix of request ids: random, so that two pages' ids never meet. */
const PAGE_ID = Array.from(crypto.getRandomValues(new Uint8Array(9)), (b) => b.toString(16).padStart(2, '0')).join('');
/** The request id of a change's next call (`.0`, `.1`, … in the order the change makes them, the same on every attempt). */
type NextRequest = () => CallOptions;
export type SaveState = 'saved' | 'saving' | 'error';
/** The pair after (step 1) or before (step −1) `pairId` in the order the editor was opened from, or null at an end. */
export type NextPair = (pairId: number, step: 1 | -1) => Promise<number | null>;

/** A split token's model links, waiting for the linguist: `index` and `index + 1` are its halves on `side`, `links` keep the other side's token. */
export interface SplitReview {
  side: TokenSide;
  index: number;
  text: string;
  links: Link[];
}

/** A suggestion with the current texts of its two tokens, as the list shows it. */
export interface SuggestionRow {
  link: Link;
  src: string;
  tgt: string;
}

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
  /** The server did not answer the last call: changes are kept and sent again until it does. */
  offline = $state(false);
  /** What the last Enter warned about: the key of the state it judged, and the text shown. */
  private warned = $state<{ key: string; text: string } | null>(null);
  /** The warning that the next Enter confirms; gone as soon as the pair is no longer in the state it was about. */
  readonly warning: string | null = $derived(this.warned !== null && this.warned.key === this.doneCheck()?.key ? this.warned.text : null);
  /** The project is open read-only: the pair can be looked at, and every change is ignored. */
  readOnly = $state(false);
  /** The token whose split point is being picked. */
  splitting = $state<Cursor | null>(null);
  /** The merge or split just saved on the open pair: the editor offers to apply it to its other occurrences. */
  lastFix = $state<{ side: TokenSide; fix: SegmentationFixSpec } | null>(null);
  /**
   * The model's links of the token last split on the open pair, which went to neither half
   * (which half the model meant is not known): listed for the linguist to link the right half.
   */
  splitReview = $state<SplitReview | null>(null);

  /** Gold edits per pair that the server has not committed yet (intended state per link and mark). */
  private pendingGold = $state<ReadonlyMap<number, PendingGold>>(new Map());
  /** The open pair's gold layer as the server committed it. */
  private readonly savedLayer: GoldLayer = $derived({ links: this.pair?.gold ?? [], untranslated: this.pair?.untranslated ?? [] });
  /** The open pair's gold layer as the linguist sees it: the committed one with the pending edits applied. */
  readonly layer: GoldLayer = $derived(withPending(this.savedLayer, this.pair ? (this.pendingGold.get(this.pair.id) ?? null) : null));
  /** The open pair's links whose state is not committed yet (drawn as pending). */
  readonly pendingLinks: ReadonlySet<number> = $derived(pendingKeys(this.pair ? (this.pendingGold.get(this.pair.id) ?? null) : null));
  /** Link and mark edits not committed yet, over every pair. */
  readonly pendingEdits: number = $derived([...this.pendingGold.values()].reduce((n, p) => n + pendingCount(p), 0));
  readonly modelLinks: Link[] = $derived(this.pair?.alignments.find((a) => a.alignmentId === this.modelId)?.links ?? []);
  /** Model links not in gold, never rejected and not on a "not translated" token, most confident first. */
  readonly suggestions: Link[] = $derived.by(() => {
    const pair = this.pair;
    if (!pair) return [];
    const skip = keySet([...this.layer.links, ...pair.rejected]);
    const mute = new Set(this.layer.untranslated.map((m) => `${m.side}:${m.index}`));
    return this.modelLinks
      .filter((l) => !skip.has(linkKey(l.s, l.t)) && !mute.has(`src:${l.s}`) && !mute.has(`tgt:${l.t}`))
      .sort((a, b) => (b.score ?? 1) - (a.score ?? 1) || a.s - b.s || a.t - b.t);
  });

  /** The open suggestions with the texts of their tokens as the pair has them now (after a split or merge too). */
  readonly suggestionRows: SuggestionRow[] = $derived(
    this.suggestions.map((link) => ({
      link,
      src: this.pair?.srcTokens[link.s]?.text ?? '?',
      tgt: this.pair?.tgtTokens[link.t]?.text ?? '?',
    })),
  );

  /** The layer on its way to the server, per pair, while the call is under way: it may be committed already. */
  private readonly sending = new Map<number, GoldLayer>();
  /** The newest model alignment the editor has seen: a newer one becomes the suggestion source. */
  private newestModel = 0;
  private chain: Promise<void> = Promise.resolve();
  private pending = 0;
  /** Changes queued so far: each one's number is its part of the request ids. */
  private changes = 0;
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
      this.warned = null;
      this.lastFix = null;
      this.splitReview = null;
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

  /**
   * Changes the gold layer: `change` gets the layer as the linguist sees it (pending edits
   * included), and its result shows at once, pending until the server committed it.
   */
  editGold(change: (layer: GoldLayer) => GoldLayer): Promise<void> {
    const pair = this.pair;
    if (!pair || this.readOnly) return Promise.resolve();
    const before = this.layer;
    const after = change(before);
    const next = new Map(this.pendingGold);
    // An edit that brings a link back to what the server holds (or is being sent) is dropped here.
    const base = this.sending.get(pair.id) ?? this.savedLayer;
    next.set(pair.id, recordPending(this.pendingGold.get(pair.id) ?? noPending(pair.id), base, before, after));
    this.pendingGold = next;
    return this.sendGold(pair.id);
  }

  accept(links: readonly Link[]): Promise<void> {
    return this.editGold((layer) =>
      addLinks(
        layer,
        links.map((l) => ({ s: l.s, t: l.t, kind: l.kind })),
      ),
    );
  }

  /** Links half `half` (0: left, 1: right) of the last split token as the model linked the whole token; the list is done. */
  placeSplitLinks(half: 0 | 1): Promise<void> {
    const review = this.splitReview;
    if (!review) return Promise.resolve();
    this.splitReview = null;
    const at = review.index + half;
    return this.accept(review.links.map((l) => (review.side === 'src' ? { ...l, s: at } : { ...l, t: at })));
  }

  acceptAbove(threshold: number): Promise<void> {
    return this.accept(this.suggestions.filter((l) => (l.score ?? 1) >= threshold));
  }

  reject(links: readonly LinkRef[]): Promise<void> {
    return this.edit(async (request) => {
      const pair = this.pair;
      if (!pair || links.length === 0) return null;
      return this.api.invoke(
        'editor.setRejected',
        { pairId: pair.id, rejected: [...pair.rejected, ...links.map(({ s, t }) => ({ s, t }))] },
        request(),
      );
    });
  }

  split(side: TokenSide, index: number, at: number): Promise<void> {
    return this.edit(async (request) => {
      const pair = this.pair;
      if (!pair) return null;
      const tokens = side === 'src' ? pair.srcTokens : pair.tgtTokens;
      const fix = splitSpec(tokens, index, at);
      // The model's open links of the token: the split puts them on neither half.
      const own = this.modelLinks.filter((l) => (side === 'src' ? l.s : l.t) === index);
      const saved = await this.api.invoke('tokens.split', { pairId: pair.id, side, index, at }, request());
      if (fix) this.lastFix = { side, fix };
      this.splitReview = own.length ? { side, index, text: tokens[index].text, links: own } : null;
      return saved;
    });
  }

  merge(side: TokenSide, index: number): Promise<void> {
    return this.edit(async (request) => {
      const pair = this.pair;
      const count = side === 'src' ? pair?.srcTokens.length : pair?.tgtTokens.length;
      if (!pair || count === undefined || index + 1 >= count) return null;
      const fix = mergeSpec(side === 'src' ? pair.srcTokens : pair.tgtTokens, index);
      const saved = await this.api.invoke('tokens.merge', { pairId: pair.id, side, index }, request());
      if (fix) this.lastFix = { side, fix };
      this.splitReview = null;
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
    await this.edit(async (request) => {
      await this.api.invoke('pairs.update', { id: pair.id, status }, request()).catch((err: unknown) => {
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
    await this.edit(async (request) => {
      // The note it replaces goes along: a note someone else saved since is not overwritten;
      // the server says so, and the pair is read again to show theirs.
      await this.api.invoke('pairs.update', { id: pair.id, note, noteBase: pair.note }, request()).catch((err: unknown) => {
        if (isUnreachable(err)) throw err;
        this.error = errorMessage(err);
      });
      return this.api.invoke('editor.get', { pairId: pair.id });
    });
    this.onEdited();
  }

  /**
   * Why the open pair should not be marked done without a second Enter (no links and no "not
   * translated" mark, or suggestions still open), with the key of the exact state that was
   * judged: the kind of warning, the pair, its links, marks and open suggestions.
   */
  private doneCheck(): { key: string; why: string } | null {
    const pair = this.pair;
    if (!pair) return null;
    const { links, untranslated } = this.layer;
    const open = this.suggestions;
    const kind = links.length === 0 && untranslated.length === 0 ? 'empty' : open.length > 0 ? 'open' : null;
    if (kind === null) return null;
    const why =
      kind === 'empty' ? 'This pair has no links yet.' : `${open.length} suggestion${open.length === 1 ? ' is' : 's are'} still open.`;
    const cells = (ls: readonly { s: number; t: number }[]) =>
      ls
        .map((l) => linkKey(l.s, l.t))
        .sort((a, b) => a - b)
        .join(',');
    const marks = untranslated
      .map((m) => `${m.side}${m.index}`)
      .sort()
      .join(',');
    return { key: `${kind}|${pair.id}|${cells(links)}|${marks}|${cells(open)}`, why };
  }

  /**
   * Marks the pair done and opens the next one (Enter). A pair with no links and no "not
   * translated" mark, or with suggestions still open, is not done at once: a warning says
   * so, and Enter again confirms — only while the pair is in the very state warned about.
   */
  async doneAndNext(): Promise<void> {
    const pair = this.pair;
    if (!pair || this.readOnly) return;
    const check = this.doneCheck();
    if (check && this.warned?.key !== check.key) {
      this.warned = { key: check.key, text: `${check.why} Press Enter again to mark it done anyway.` };
      return;
    }
    this.warned = null;
    if (!(await this.setStatus('done'))) return;
    const next = await this.nextPair(pair.id, 1);
    if (next !== null) await this.open(next);
  }

  /**
   * The linguist closed the Enter warning: it no longer stands as asked-and-answered, so the
   * next Enter warns again instead of marking the pair done unseen.
   */
  dismissWarning(): void {
    this.warned = null;
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
    this.splitReview = null;
    return this.edit(async (request) => {
      const { pair } = await this.api.invoke(channel, {}, request());
      this.onEdited();
      return pair;
    });
  }

  /**
   * Sends the layer the linguist sees for `pairId` (the committed one with every pending edit
   * applied, read when the call is made, so a retry carries the edits made meanwhile), then
   * keeps pending only what the answer does not hold. A refused change is dropped from the
   * screen: the error says why.
   */
  private sendGold(pairId: number): Promise<void> {
    return this.enqueue(async (request) => {
      const pending = this.pendingGold.get(pairId);
      if (!pending || pendingCount(pending) === 0) return null;
      try {
        const shown = this.pair?.id === pairId ? this.pair : await this.api.invoke('editor.get', { pairId });
        const next = withPending({ links: shown.gold, untranslated: shown.untranslated }, pending);
        this.sending.set(pairId, next);
        const saved = await this.api
          .invoke('editor.setGold', { pairId, links: next.links, untranslated: next.untranslated }, request())
          .finally(() => this.sending.delete(pairId));
        this.settleGold(pairId, (p) => stillPending(p, { links: saved.gold, untranslated: saved.untranslated }));
        // The annotator's first link created their gold alignment: the project's lists must show it.
        if (shown.goldId === null && saved.goldId !== null) this.onEdited();
        return this.pair?.id === pairId ? saved : null;
      } catch (err) {
        if (!isUnreachable(err)) this.settleGold(pairId, () => null);
        throw err;
      }
    });
  }

  /** Replaces (or with null drops) the pending edits of one pair. */
  private settleGold(pairId: number, update: (p: PendingGold) => PendingGold | null): void {
    const current = this.pendingGold.get(pairId);
    if (!current) return;
    const next = new Map(this.pendingGold);
    const kept = update(current);
    if (kept && pendingCount(kept) > 0) next.set(pairId, kept);
    else next.delete(pairId);
    this.pendingGold = next;
  }

  /** A change: queued as every call is, or ignored when the project is read-only. */
  private edit(work: (request: NextRequest) => Promise<EditorPair | null>): Promise<void> {
    return this.readOnly ? Promise.resolve() : this.enqueue(work);
  }

  /**
   * Runs `work` after every change before it. While the server cannot be reached the change
   * is kept and sent again every RETRY_MS, the editor saying so; changes after it wait their
   * turn. Every attempt numbers the change's calls alike (`request`), so a call the server ran
   * but whose answer was lost is answered again, not run again.
   */
  private enqueue(work: (request: NextRequest) => Promise<EditorPair | null>): Promise<void> {
    this.pending++;
    this.saveState = 'saving';
    const change = `${PAGE_ID}-${++this.changes}`;
    const persistent = async (): Promise<EditorPair | null> => {
      for (;;) {
        let calls = 0;
        try {
          const pair = await work(() => ({ requestId: `${change}.${calls++}` }));
          this.offline = false;
          return pair;
        } catch (err) {
          this.offline = isUnreachable(err);
          if (!this.offline) throw err;
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
