// The unit every importer yields and every exporter consumes: one sentence pair with
// whatever the format carries (tokens, alignments, review state). Importers never touch
// the store; the import pipeline (corpus/import-pipeline.ts) segments and stores records.
import type { AlignmentOrigin, Link, PairStatus, Split, Token } from '../../shared/domain.ts';
import type { RejectedLink } from '../../shared/link-set.ts';

/** One alignment of a pair as a file carries it. */
export interface AlignmentRecord {
  origin: AlignmentOrigin;
  /** Annotator name (gold), model-run name (model) or file name (import). */
  source: string;
  /** The project's adjudicated gold (origin gold): what adjudication wrote, no annotator's own. */
  adjudicated?: boolean;
  links: Link[];
  /** Tokens checked and left unaligned ("not translated") in this alignment, by 0-based index. */
  untranslated?: { src: number[]; tgt: number[] };
}

export interface PairRecord {
  /** 1-based line (or record) number in the input, for error messages; 0 when exported. */
  line: number;
  /** The pair's id in the project, when exported from one. */
  id?: number;
  src: string;
  tgt: string;
  /** Present when the input is already tokenized (JSONL with tokens, store export). */
  srcTokens?: Token[];
  tgtTokens?: Token[];
  alignments?: AlignmentRecord[];
  rejected?: RejectedLink[];
  status?: PairStatus;
  split?: Split;
  note?: string;
  /** Each annotator's own status and note (blind double annotation); status and note above are the pair's. */
  reviews?: { annotator: string; status: PairStatus; note: string }[];
}
