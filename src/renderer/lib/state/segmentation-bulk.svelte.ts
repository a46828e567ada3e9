// The offer to apply a merge or split just made in the editor to its other occurrences in
// the corpus: the preview ('tokens.bulkFix' without apply), which occurrences the user keeps
// (all at first), and applying those as one edit group (one undo reverses it).
import type { MekongApi } from '../../../shared/api.ts';
import type { SegmentationFixSpec, TokenFixOccurrence, TokenSide } from '../../../shared/editor-api.ts';
import { errorMessage } from '../api/api-error.ts';
import { occurrenceKey } from '../editor/fix-context.ts';

export class SegmentationBulkState {
  occurrences = $state<TokenFixOccurrence[]>([]);
  kept = $state(new Set<string>());
  busy = $state(false);
  error = $state<string | null>(null);
  /** Set once the preview came back (so a fix with no other occurrence shows nothing). */
  previewed = $state(false);

  constructor(
    private readonly api: MekongApi,
    readonly side: TokenSide,
    readonly fix: SegmentationFixSpec,
  ) {}

  async preview(): Promise<void> {
    await this.run(async () => {
      const res = await this.api.invoke('tokens.bulkFix', { side: this.side, fix: this.fix, apply: false });
      this.occurrences = res.occurrences;
      this.kept = new Set(res.occurrences.map(occurrenceKey));
      this.previewed = true;
    });
  }

  /** Applies the kept occurrences; returns how many were fixed (null on failure). */
  async apply(): Promise<number | null> {
    let fixed: number | null = null;
    await this.run(async () => {
      const occurrences = this.occurrences.filter((o) => this.kept.has(occurrenceKey(o))).map(({ pairId, index }) => ({ pairId, index }));
      if (occurrences.length === 0) return;
      const res = await this.api.invoke('tokens.bulkFix', { side: this.side, fix: this.fix, apply: true, occurrences });
      fixed = res.occurrences.length;
    });
    return fixed;
  }

  toggle(key: string): void {
    const next = new Set(this.kept);
    if (!next.delete(key)) next.add(key);
    this.kept = next;
  }

  keepAll(all: boolean): void {
    this.kept = new Set(all ? this.occurrences.map(occurrenceKey) : []);
  }

  private async run(work: () => Promise<void>): Promise<void> {
    this.busy = true;
    this.error = null;
    try {
      await work();
    } catch (err) {
      this.error = errorMessage(err);
    } finally {
      this.busy = false;
    }
  }
}
