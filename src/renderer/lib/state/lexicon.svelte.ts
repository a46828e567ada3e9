// The lexicon's state: the word pairs (counts over the annotator's gold and one model),
// the chosen pair's concordance, and the bulk fix in two steps — a preview of what would
// change, then applying it as one undoable group.
import type { MekongApi } from '../../../shared/api.ts';
import type { BulkChange, LexiconEntry, Occurrence } from '../../../shared/editor-api.ts';
import { errorMessage } from '../api/api-error.ts';

export type BulkAction = 'add' | 'remove';

export class LexiconState {
  text = $state('');
  entries = $state<LexiconEntry[]>([]);
  modelId = $state<number | null>(null);
  chosen = $state<LexiconEntry | null>(null);
  occurrences = $state<Occurrence[]>([]);
  total = $state(0);
  preview = $state<{ action: BulkAction; changes: BulkChange[] } | null>(null);
  message = $state('');
  error = $state<string | null>(null);

  constructor(
    private readonly api: MekongApi,
    private readonly onEdited: () => void,
  ) {}

  async load(): Promise<void> {
    await this.run(async () => {
      const res = await this.api.invoke('lexicon.list', { ...(this.modelId !== null ? { modelId: this.modelId } : {}), text: this.text, limit: 500 });
      this.entries = res.entries;
      this.modelId = res.modelId;
    });
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
      const res = await this.api.invoke('lexicon.bulk', { src: c.src, tgt: c.tgt, action, apply: false });
      this.preview = { action, changes: res.changes };
    });
  }

  async applyBulk(): Promise<void> {
    const c = this.chosen, p = this.preview;
    if (!c || !p) return;
    await this.run(async () => {
      const res = await this.api.invoke('lexicon.bulk', { src: c.src, tgt: c.tgt, action: p.action, apply: true });
      this.message = `${p.action === 'add' ? 'Linked' : 'Unlinked'} in ${res.changes.length} pairs — one undo reverses it.`;
      this.preview = null;
    });
    await this.refresh();
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
      const res = await this.api.invoke('lexicon.occurrences', { src: c.src, tgt: c.tgt, ...(this.modelId !== null ? { modelId: this.modelId } : {}), limit: 300 });
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
