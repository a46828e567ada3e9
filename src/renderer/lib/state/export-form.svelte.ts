// The export dialog's choices and their translation into the contract's export options.
// Empty filter lists mean "all"; 0/1-based indices apply to the link formats only.
import type { ExportOptions, exportFormats } from '../../../shared/api.ts';
import type { PairStatus, Split } from '../../../shared/domain.ts';

export type ExportFormat = (typeof exportFormats)[number];

export class ExportForm {
  format = $state<ExportFormat>('jsonl');
  path = $state('');
  statuses = $state<PairStatus[]>([]);
  splits = $state<Split[]>([]);
  alignmentIds = $state<number[]>([]);
  oneBased = $state(false);

  readonly linkFormat = $derived(this.format === 'pharaoh' || this.format === 'talp');
  readonly complete = $derived(this.path.trim() !== '');

  options(): ExportOptions {
    const options: ExportOptions = { format: this.format, file: this.path.trim() };
    if (this.statuses.length) options.status = [...this.statuses];
    if (this.splits.length) options.split = [...this.splits];
    if (this.alignmentIds.length) options.alignmentIds = [...this.alignmentIds];
    if (this.linkFormat) options.oneBased = this.oneBased;
    return options;
  }
}
