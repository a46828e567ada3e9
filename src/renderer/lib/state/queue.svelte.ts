// The review queue's state: which model alignment orders it (by uncertainty, or by
// disagreement with a second one), its filters (status, annotator, one annotator's
// assignment, text), and the first
// QUEUE_SIZE pairs in that order.
import type { MekongApi } from '../../../shared/api.ts';
import type { QueueItem } from '../../../shared/editor-api.ts';
import type { PairStatus } from '../../../shared/domain.ts';
import { errorMessage } from '../api/api-error.ts';

export const QUEUE_SIZE = 200;

export class QueueState {
  alignmentId = $state<number | null>(null);
  versusId = $state<number | null>(null);
  /** Done pairs are left out until the user asks for them. */
  statuses = $state<PairStatus[]>(['new', 'in-review', 'flagged']);
  annotator = $state('');
  /** Only the pairs assigned to this annotator ("My assignment"), or null for every pair. */
  assignedTo = $state<string | null>(null);
  text = $state('');
  items = $state<QueueItem[]>([]);
  total = $state(0);
  loading = $state(false);
  error = $state<string | null>(null);

  constructor(private readonly api: MekongApi) {}

  async load(): Promise<void> {
    if (this.alignmentId === null) return;
    this.loading = true;
    try {
      const res = await this.api.invoke('queue.list', {
        alignmentId: this.alignmentId,
        ...(this.versusId !== null ? { versusId: this.versusId } : {}),
        ...(this.statuses.length ? { status: [...this.statuses] } : {}),
        ...(this.annotator.trim() ? { annotator: this.annotator.trim() } : {}),
        ...(this.assignedTo !== null ? { assignedTo: this.assignedTo } : {}),
        ...(this.text ? { text: this.text } : {}),
        offset: 0,
        limit: QUEUE_SIZE,
      });
      this.items = res.items;
      this.total = res.total;
      this.error = null;
    } catch (err) {
      this.error = errorMessage(err);
    } finally {
      this.loading = false;
    }
  }
}
