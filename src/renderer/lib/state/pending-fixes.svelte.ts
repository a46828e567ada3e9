// The pending segmentation fixes as the Re-segment dialog lists them ('segmentation.pending'):
// merges and splits made in the editor and kept in the project until applied to their other
// occurrences (through the editor's review dialog, SegmentationBulkState) or dismissed.
import type { MekongApi } from '../../../shared/api.ts';
import type { PendingFix } from '../../../shared/editor-api.ts';
import { errorMessage } from '../api/api-error.ts';

export class PendingFixesState {
  fixes = $state<PendingFix[]>([]);
  /** Set once the list came back. */
  loaded = $state(false);
  busy = $state(false);
  error = $state<string | null>(null);

  constructor(private readonly api: MekongApi) {}

  load(): Promise<void> {
    return this.run(async () => {
      this.fixes = (await this.api.invoke('segmentation.pending', {})).fixes;
      this.loaded = true;
    });
  }

  dismiss(id: number): Promise<void> {
    return this.run(async () => {
      await this.api.invoke('segmentation.dismiss', { id });
      this.fixes = this.fixes.filter((f) => f.id !== id);
    });
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
