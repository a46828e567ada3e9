// The mining part of the API contract (spread into `channels` and `Results` in api.ts):
// a Mine job proposes sentence pairs between two monolingual files (Bi-Sent2Vec trained on
// the project's pairs, margin scores over cosine plus IBM1, seed 001 appendix B); the linguist accepts or
// rejects each proposal; accepted ones join the corpus as an import whose pairs remember
// the run, the lines and the score they came from.
import { z } from 'zod';

const id = z.number().int().nonnegative();
const path = z.string().trim().min(1).max(4096);

export const mineDecisions = ['pending', 'accepted', 'rejected'] as const;
export type MineDecision = (typeof mineDecisions)[number];

export const mineStartSchema = z
  .object({
    /** Monolingual files, one sentence per line, in the project's source and target languages. */
    srcFile: path,
    tgtFile: path,
    tokenization: z.enum(['segment', 'pretokenized']).default('segment'),
    /** Margin score from which a pair is proposed; default: the one found on held-out project pairs. */
    threshold: z.number().finite().optional(),
    /** Accept sides in another script than the project's languages. */
    anyScript: z.boolean().optional(),
    /** A siamese head folder saved by `mekong siamese` (seed 004), on the machine running Mekong: its encoder's sentence vectors through the head replace Bi-Sent2Vec. */
    head: path.optional(),
  })
  .strict();

export const miningChannels = {
  'mine.start': mineStartSchema,
  'mine.runs': z.object({}).strict(),
  /** One page of a run's proposals, best score first (or in the order of the source file). */
  'mine.proposals': z
    .object({
      runId: id,
      decision: z.enum(mineDecisions).optional(),
      order: z.enum(['score', 'source']).default('score'),
      offset: z.number().int().min(0),
      limit: z.number().int().min(1).max(1000),
    })
    .strict(),
  /** Sets the decision of proposals of one run: the listed ones, or every pending one at or above `minScore`. */
  'mine.decide': z
    .object({
      runId: id,
      ids: z.array(id).max(10_000).optional(),
      minScore: z.number().finite().optional(),
      decision: z.enum(mineDecisions),
    })
    .strict()
    .refine((o) => (o.ids === undefined) !== (o.minScore === undefined), 'give ids or minScore, not both'),
  /** Adds the run's accepted proposals that are not in the corpus yet as one import. */
  'mine.addAccepted': z.object({ runId: id }).strict(),
  'mine.deleteRun': z.object({ runId: id }).strict(),
} as const;

export type MineStartOptions = z.input<typeof mineStartSchema>;

export interface MineRunInfo {
  id: number;
  srcFile: string;
  tgtFile: string;
  srcLines: number;
  tgtLines: number;
  threshold: number;
  /** How the threshold was chosen (given, or found on held-out project pairs). */
  thresholdSource: string;
  createdAt: string;
  counts: Record<MineDecision, number>;
  /** Accepted proposals already in the corpus. */
  added: number;
}

export interface MineProposal {
  id: number;
  /** 1-based line numbers in the run's files. */
  srcLine: number;
  tgtLine: number;
  srcText: string;
  tgtText: string;
  score: number;
  decision: MineDecision;
  /** The corpus pair it became, once added. */
  pairId: number | null;
}

export interface MiningResults {
  'mine.start': { jobId: string };
  'mine.runs': MineRunInfo[];
  'mine.proposals': { total: number; offset: number; proposals: MineProposal[] };
  'mine.decide': MineRunInfo;
  'mine.addAccepted': { added: number; importId: number | null; run: MineRunInfo };
  'mine.deleteRun': MineRunInfo[];
}
