// Domain types shared by the Node side and the renderer: tokens, links, alignments,
// sentence pairs. Plain data only (structured-clone and JSON safe).
import type { Link, LinkRef } from './link-set.ts';

/** One token of a sentence; `start`/`end` are UTF-16 offsets into the original text. */
export interface Token {
  text: string;
  start: number;
  end: number;
}

/** Links, their kinds and views live in link-set.ts (the one link-set module). */
export type { AlignedPair, Link, LinkKind, LinkRef } from './link-set.ts';

export type AlignmentOrigin = 'gold' | 'model' | 'import';
export type PairStatus = 'new' | 'in-review' | 'done' | 'flagged';
export type Split = 'train' | 'dev' | 'test';

/** A sentence pair as lists show it: its texts, tokens and review state. */
export interface PairSummary {
  id: number;
  src: string;
  tgt: string;
  srcTokens: Token[];
  tgtTokens: Token[];
  status: PairStatus;
  split: Split;
  note: string;
  /** Left out of training (every aligner's) and of exports. */
  excluded: boolean;
  /** How parallel the pair's two sentences look (sentence-level curation), or null before scoring. */
  parallelism: Parallelism | null;
}

/**
 * A pair's parallelism score: the margin of its sentence vectors' cosine over their
 * neighbourhoods' (above about 0: each sentence's best match is the other), misaligned when
 * under the project's threshold, with the best-scoring other candidate: another pair's target
 * for this source ('target') or another pair's source for this target ('source').
 */
export interface Parallelism {
  score: number;
  misaligned: boolean;
  rival: { pairId: number; side: 'source' | 'target'; score: number } | null;
}

/** A pair with the links of every alignment and the links reviewers rejected. */
export interface PairDetail extends PairSummary {
  alignments: { alignmentId: number; links: Link[] }[];
  rejected: LinkRef[];
}

export const PAIR_STATUSES: readonly PairStatus[] = ['new', 'in-review', 'done', 'flagged'];
export const SPLITS: readonly Split[] = ['train', 'dev', 'test'];
export const ALIGNMENT_ORIGINS: readonly AlignmentOrigin[] = ['gold', 'model', 'import'];
