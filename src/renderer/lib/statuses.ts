// How review statuses and splits are named in the UI, in their display order.
import type { PairStatus, Split } from '../../shared/domain.ts';

export const STATUS_LABELS: Record<PairStatus, string> = {
  new: 'New',
  'in-review': 'In review',
  done: 'Done',
  flagged: 'Flagged',
};

export const SPLIT_LABELS: Record<Split, string> = { train: 'Train', dev: 'Dev', test: 'Test' };

export const formatCount = new Intl.NumberFormat('en').format;
