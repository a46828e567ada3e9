// The lexicon's state: the word pairs (counts over the annotator's gold and one model, less
// rejected links), the chosen pair's concordance, and the bulk fix in two steps — a preview
// listing every link it would add or remove, each with a checkbox (the supported ones checked
// at first; a pairing nothing supports is listed unchecked, for review), then applying the
// checked ones as one undoable group.
import type { MekongApi } from '../../../shared/api.ts';
import type { BulkChange, LexiconEntry, Occurrence } from '../../../shared/editor-api.ts';
import { pairLinkKey } from '../../../shared/link-set.ts';
import { errorMessage } from '../api/api-error.ts';

export const LIST_PAGE = 500;

export type BulkAction = 'add' | 'remove' | 'reject';

export class LexiconState {
  text = $state('');
  /** How many word pairs the list shows (most linked first); "Show more" pages on. */
  limit = $state(LIST_PAGE);
  entries = $state<LexiconEntry[]>([]);
  modelId = $state<number | null>(null);
  chosen = $state<LexiconEntry | null>(null);
  occurrences = $state<Occurrence[]>([]);
  total = $state(0);
  preview = $state<{ action: BulkAction; changes: BulkChange[] } | null>(null);
  /** Keys (pairLinkKey) of the preview's links the user keeps. */
  kept = $state<Set<string>>(new Set());
  /** Every link of the preview, in pair order, with its key. */
  readonly previewLinks = $derived(
    (this.preview?.changes ?? []).flatMap((c) =>
      [...c.add, ...c.remove].map((l) => ({ key: pairLinkKey(c.pairId, l.s, l.t), change: c, link: l })),
    ),
  );
  /** The preview's supported links (the model's, or the gold a removal takes): checked at first. */
  readonly supportedLinks = $derived(this.previewLinks.filter((l) => l.link.by !== 'unsupported'));
  /** How many of the preview's pairings no link supports: listed for review, unchecked at first. */
  readonly reviewCount = $derived(this.previewLinks.length - this.supportedLinks.length);
  message = $state('');
  error = $state<string | null>(null);

  constructor(
    private readonly api: MekongApi,
    private readonly onEdited: () => void,
  ) {}

  async load(): Promise<void> {
    await this.run(async () => {
      const res = await this.api.invoke('lexicon.list', {
        ...(this.modelId !== null ? { modelId: this.modelId } : {}),
        text: this.text,
        limit: this.limit,
      });
      this.entries = res.entries;
      this.modelId = res.modelId;
    });
  }

  /** The next page of word pairs. */
  async more(): Promise<void> {
    this.limit += LIST_PAGE;
    await this.load();
  }

  async choose(entry: LexiconEntry): Promise<void> {
    this.chosen = entry;
    this.preview = null;
    this.message = '';
    await this.concordance();
  }

  async previewBulk(action: BulkAction): Promise<void> {
    const c = this.chosen;
    if (!c) return;
    await this.run(async () => {
      const res = await this.api.invoke('lexicon.bulk', {
        src: c.src,
        tgt: c.tgt,
        action,
        apply: false,
        ...(this.modelId !== null ? { modelId: this.modelId } : {}),
      });
      this.preview = { action, changes: res.changes };
      this.kept = new Set(this.supportedLinks.map((l) => l.key));
    });
  }

  async applyBulk(): Promise<void> {
    const c = this.chosen,
      p = this.preview;
    if (!c || !p) return;
    await this.run(async () => {
      const links = this.previewLinks
        .filter((l) => this.kept.has(l.key))
        .map(({ change, link }) => ({ pairId: change.pairId, s: link.s, t: link.t }));
      const res = await this.api.invoke('lexicon.bulk', {
        src: c.src,
        tgt: c.tgt,
        action: p.action,
        apply: true,
        links,
        ...(this.modelId !== null ? { modelId: this.modelId } : {}),
      });
      const n = res.changes.reduce((k, x) => k + x.add.length + x.remove.length, 0);
      this.message = `${p.action === 'add' ? 'Linked' : p.action === 'remove' ? 'Unlinked' : 'Rejected'} ${n} links in ${res.changes.length} pairs — one undo reverses it.`;
      this.preview = null;
    });
    await this.refresh();
  }

  /** Keeps or drops one of the preview's links. */
  toggleKept(key: string): void {
    const next = new Set(this.kept);
    if (!next.delete(key)) next.add(key);
    this.kept = next;
  }

  /** Keeps every supported link of the preview (the ones listed for review stay as they are), or none. */
  keepAll(all: boolean): void {
    if (!all) this.kept = new Set();
    else this.kept = new Set([...this.kept, ...this.supportedLinks.map((l) => l.key)]);
  }

  async undo(): Promise<void> {
    await this.run(async () => {
      const res = await this.api.invoke('edits.undo', {});
      this.message = res.pair ? 'Undone.' : 'Nothing to undo.';
    });
    await this.refresh();
  }

  private async refresh(): Promise<void> {
    this.onEdited();
    await this.load();
    await this.concordance();
  }

  private async concordance(): Promise<void> {
    const c = this.chosen;
    if (!c) return;
    await this.run(async () => {
      const res = await this.api.invoke('lexicon.occurrences', {
        src: c.src,
        tgt: c.tgt,
        ...(this.modelId !== null ? { modelId: this.modelId } : {}),
        limit: 300,
      });
      this.occurrences = res.occurrences;
      this.total = res.total;
    });
  }

  private async run(action: () => Promise<void>): Promise<void> {
    try {
      await action();
      this.error = null;
    } catch (err) {
      this.error = errorMessage(err);
    }
  }
}
