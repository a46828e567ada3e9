// The Mekong JSONL schema (one sentence pair per line), the single source of truth for the
// JSONL reader and writer. Version 1:
//
//   {"src":{"text":"ສະບາຍດີ ໂລກ","tokens":[[0,7],[8,11]]},
//    "tgt":{"text":"สวัสดี โลก","tokens":[[0,6],[7,10]]},
//    "alignments":[{"origin":"gold","source":"anna","links":[[0,0,"sure",null],[1,1,"possible",0.92]]}],
//    "status":"done","split":"train","note":"checked \"twice\""}
//
// - src/tgt: `text` is the sentence; `tokens` (optional) are [start, end] UTF-16 offsets
//   into `text` (end exclusive); the token text is `text.slice(start, end)`, or a third
//   element [start, end, "text"] when it differs (e.g. a normalised form). Readers also
//   accept a bare string as shorthand for {"text": …}.
// - alignments (optional): origin gold|model|import, source = annotator, model run or file,
//   links = [s, t, "sure"|"possible", score|null] with 0-based token indices.
// - status new|in-review|done|flagged, split train|dev|test, note: optional.
// Unknown keys are ignored. Writers emit keys in the order above, omit absent optional
// keys, write numbers with JSON.stringify (shortest round-trip form) and end each line with
// '\n', so export → import → export is byte-identical.
import { z } from 'zod';
import {
  ALIGNMENT_ORIGINS,
  PAIR_STATUSES,
  SPLITS,
  type AlignmentOrigin,
  type PairStatus,
  type Split,
} from '../../shared/domain.ts';

const index = z.number().int().nonnegative();

export const TokenJson = z.tuple([index, index, z.string().optional()]);

const SideObject = z.object({
  text: z.string(),
  tokens: z.array(TokenJson).optional(),
});

/** One side of a pair; a bare string is read as {"text": string}. */
export const SideJson = z.preprocess(
  (v) => (typeof v === 'string' ? { text: v } : v),
  SideObject,
);

export const LinkJson = z.tuple([
  index,
  index,
  z.enum(['sure', 'possible']),
  z.number().min(0).max(1).nullable(),
]);

export const AlignmentJson = z.object({
  origin: z.enum(ALIGNMENT_ORIGINS as [AlignmentOrigin, ...AlignmentOrigin[]]),
  source: z.string(),
  links: z.array(LinkJson),
});

export const PairJson = z.object({
  src: SideJson,
  tgt: SideJson,
  alignments: z.array(AlignmentJson).optional(),
  status: z.enum(PAIR_STATUSES as [PairStatus, ...PairStatus[]]).optional(),
  split: z.enum(SPLITS as [Split, ...Split[]]).optional(),
  note: z.string().optional(),
});

export type SideJsonValue = z.output<typeof SideObject>;
export type TokenJsonValue = z.output<typeof TokenJson>;
export type LinkJsonValue = z.output<typeof LinkJson>;
export type AlignmentJsonValue = z.output<typeof AlignmentJson>;
export type PairJsonValue = z.output<typeof PairJson>;

/** "field tgt: missing" / "field src.tokens.3: Too small: …" for the first zod issue. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
  const field = path === '' ? 'record' : `field ${path}`;
  return missing ? `${field}: missing` : `${field}: ${issue.message}`;
}
