// The Mekong JSONL schema (one sentence pair per line), the single source of truth for the
// JSONL reader and writer. Version 1:
//
//   {"id":12,"src":{"text":"ສະບາຍດີ ໂລກ","tokens":[[0,7],[8,11]]},
//    "tgt":{"text":"สวัสดี โลก","tokens":[[0,6],[7,10]]},
//    "alignments":[{"origin":"gold","source":"anna","links":[[0,0,"sure",null,"semantic"],[1,1,"possible",0.92]],
//                   "untranslated":{"src":[],"tgt":[2]}},
//                  {"origin":"gold","source":"adjudicated","adjudicated":true,"links":[[0,0,"sure",null]]}],
//    "rejected":[[1,0,"anna"]],
//    "status":"done","split":"train","note":"checked \"twice\"",
//    "reviews":[{"annotator":"anna","status":"done","note":"checked \"twice\""},{"annotator":"ben","status":"in-review"}]}
//
// - id (optional): the pair's id in the project it was exported from, so that records of a
//   filtered export (Done only, one split) can be mapped back to their pairs; an import gives
//   its pairs new ids and does not read it.
// - src/tgt: `text` is the sentence; `tokens` (optional) are [start, end] UTF-16 offsets
//   into `text` (end exclusive), non-empty, in order, not overlapping, not all whitespace;
//   the token text is `text.slice(start, end)`. A third element [start, end, "text"] is
//   accepted when it equals that slice (the store keeps tokens as spans, so a differing
//   normalised form is refused with its line). Readers also accept a bare string as
//   shorthand for {"text": …}.
// - alignments (optional): origin gold|model|import, source = annotator, model run or file,
//   links = [s, t, "sure"|"possible", score|null] with 0-based token indices, and a fifth
//   element, the link's tag (its type: "semantic", "function", …), when it has one; untranslated
//   (optional) = the token indices per side checked and left unaligned ("not translated"),
//   so a reviewed empty word can be told from one nobody looked at. `adjudicated: true` marks
//   the project's adjudicated gold (what adjudication between annotators wrote, no annotator's
//   own gold; its source is "adjudicated").
// - rejected (optional): links a reviewer rejected, [s, t, annotator]: never suggested again.
// - status new|in-review|done|flagged, split train|dev|test, note: optional; the pair's own
//   (the last set by anyone).
// - reviews (optional): each annotator's own status and note of the pair (blind double
//   annotation), note omitted when empty.
// Unknown keys are ignored. Writers emit keys in the order above, omit absent optional
// keys, write numbers with JSON.stringify (shortest round-trip form) and end each line with
// '\n', so export → import → export is byte-identical.
//
// Token and link tuples are checked by plain predicates inside the schema (z.custom):
// they are most of a line, and z.tuple on them cost more than JSON.parse itself (4x the
// predicates); with them, reading is bound by JSON.parse.
import { z } from 'zod';
import {
  ALIGNMENT_ORIGINS,
  PAIR_STATUSES,
  SPLITS,
  type AlignmentOrigin,
  type LinkKind,
  type PairStatus,
  type Split,
} from '../../shared/domain.ts';
import { linkTagName } from '../../shared/link-tags.ts';

const isIndex = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v >= 0;

function isToken(v: unknown): v is [number, number] | [number, number, string] {
  if (!Array.isArray(v) || !isIndex(v[0]) || !isIndex(v[1])) return false;
  return v.length === 2 || (v.length === 3 && typeof v[2] === 'string');
}

type LinkTuple = [number, number, LinkKind, number | null] | [number, number, LinkKind, number | null, string];

function isLink(v: unknown): v is LinkTuple {
  if (!Array.isArray(v) || (v.length !== 4 && v.length !== 5) || !isIndex(v[0]) || !isIndex(v[1])) return false;
  const [, , kind, score, tag] = v;
  const scoreOk = score === null || (typeof score === 'number' && score >= 0 && score <= 1);
  const tagOk = v.length === 4 || (typeof tag === 'string' && linkTagName.safeParse(tag).data === tag);
  return (kind === 'sure' || kind === 'possible') && scoreOk && tagOk;
}

/** [start, end] or [start, end, "token text"]. */
export const TokenJson = z.custom<[number, number] | [number, number, string]>(isToken, {
  message: 'expected [start, end] or [start, end, "text"] with offsets ≥ 0',
});

const SideObject = z.object({
  text: z.string(),
  tokens: z.array(TokenJson).optional(),
});

/** One side of a pair; a bare string is read as {"text": string}. */
export const SideJson = z.preprocess((v) => (typeof v === 'string' ? { text: v } : v), SideObject);

/** [source index, target index, kind, score or null] or the same with the link's tag. */
export const LinkJson = z.custom<LinkTuple>(isLink, {
  message: 'expected [s, t, "sure"|"possible", score in [0, 1] or null] or the same with a tag (1–40 printable characters) fifth',
});

const Index = z.custom<number>(isIndex, { message: 'expected a token index ≥ 0' });

export const AlignmentJson = z.object({
  origin: z.enum(ALIGNMENT_ORIGINS as [AlignmentOrigin, ...AlignmentOrigin[]]),
  source: z.string(),
  adjudicated: z.literal(true).optional(),
  links: z.array(LinkJson),
  untranslated: z.object({ src: z.array(Index), tgt: z.array(Index) }).optional(),
});

/** [source index, target index, annotator]. */
export const RejectedJson = z.custom<[number, number, string]>(
  (v) => Array.isArray(v) && v.length === 3 && isIndex(v[0]) && isIndex(v[1]) && typeof v[2] === 'string',
  { message: 'expected [s, t, "annotator"]' },
);

const Status = z.enum(PAIR_STATUSES as [PairStatus, ...PairStatus[]]);

/** One annotator's own status and note of the pair. */
export const ReviewJson = z.object({ annotator: z.string().min(1), status: Status, note: z.string().optional() });

export const PairJson = z.object({
  id: z.number().int().nonnegative().optional(),
  src: SideJson,
  tgt: SideJson,
  alignments: z.array(AlignmentJson).optional(),
  rejected: z.array(RejectedJson).optional(),
  status: z.enum(PAIR_STATUSES as [PairStatus, ...PairStatus[]]).optional(),
  split: z.enum(SPLITS as [Split, ...Split[]]).optional(),
  note: z.string().optional(),
  reviews: z.array(ReviewJson).optional(),
});

export type SideJsonValue = z.output<typeof SideObject>;
export type TokenJsonValue = z.output<typeof TokenJson>;
export type LinkJsonValue = z.output<typeof LinkJson>;
export type AlignmentJsonValue = z.output<typeof AlignmentJson>;
export type PairJsonValue = z.output<typeof PairJson>;
export type ReviewJsonValue = z.output<typeof ReviewJson>;

/** "field tgt: missing" / "field src.tokens.3: Too small: …" for the first zod issue. */
export function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  const path = issue.path.map(String).join('.');
  const missing = issue.code === 'invalid_type' && / received undefined$/.test(issue.message);
  const field = path === '' ? 'record' : `field ${path}`;
  return missing ? `${field}: missing` : `${field}: ${issue.message}`;
}
