// The export dialog's choices and their translation into the contract's export options.
// Empty filter lists mean "all"; 0/1-based indices apply to the link formats only. A links
// file (Pharaoh, TALP) holds one alignment: `linksFrom` names it (an alignment id), the
// merged gold, or one file per alignment; the alignment checkboxes apply to the other formats.
import type { AlignmentInfo, ExportOptions, exportFormats, linksFromChoices } from '../../../shared/api.ts';
import type { PairStatus, Split } from '../../../shared/domain.ts';

export type ExportFormat = (typeof exportFormats)[number];

export class ExportForm {
  format = $state<ExportFormat>('jsonl');
  path = $state('');
  /** Browser mode: download to this computer (else write `path` on the server machine). */
  download = $state(false);
  /** The downloaded file's name; empty: `<project>.<format>`. */
  fileName = $state('');
  statuses = $state<PairStatus[]>([]);
  splits = $state<Split[]>([]);
  alignmentIds = $state<number[]>([]);
  oneBased = $state(false);
  tokenized = $state(false);
  linksFrom = $state<number | (typeof linksFromChoices)[number]>('each');

  /** The first gold alignment (an annotator's reviewed links), else the first alignment, else one file each. */
  private readonly projectName: string;

  constructor(alignments: readonly AlignmentInfo[] = [], projectName = 'corpus') {
    this.projectName = projectName;
    const preferred = alignments.find((a) => a.origin === 'gold') ?? alignments[0];
    if (preferred) this.linksFrom = preferred.id;
  }

  /** `<project>.<format>`, the name a download gets unless the user gives one. */
  get defaultName(): string {
    return `${this.projectName.replace(/[^\p{L}\p{N}_-]+/gu, '-').toLowerCase() || 'corpus'}.${this.format}`;
  }

  readonly linkFormat = $derived(this.format === 'pharaoh' || this.format === 'talp');
  readonly tokenizable = $derived(this.format === 'tsv' || this.format === 'fastalign');
  readonly complete = $derived(this.download || this.path.trim() !== '');

  options(): ExportOptions {
    const options: ExportOptions = this.download
      ? { format: this.format, file: this.fileName.trim() || this.defaultName, download: true }
      : { format: this.format, file: this.path.trim() };
    if (this.statuses.length) options.status = [...this.statuses];
    if (this.splits.length) options.split = [...this.splits];
    if (this.linkFormat) {
      options.linksFrom = this.linksFrom;
      options.oneBased = this.oneBased;
    } else if (this.alignmentIds.length) {
      options.alignmentIds = [...this.alignmentIds];
    }
    if (this.tokenizable && this.tokenized) options.tokenized = true;
    return options;
  }
}
