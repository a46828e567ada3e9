// Pending segmentation fixes (table segmentation_offers, migration 14): each merge or split
// made in the editor is kept as an offer to apply it to its other occurrences in the corpus,
// so the offer outlives the pair being left or the app being closed. One row per fix and side
// (making the same fix again refreshes who made it, where and when); applying the fix
// corpus-wide (review/segmentation-bulk.ts) or dismissing it removes it.
import type { PendingFix, SegmentationFixSpec, TokenSide } from '../../shared/editor-api.ts';
import { fixKey, fixOfKey } from '../../shared/fix-spec.ts';
import { UserError } from '../errors.ts';
import { dbOf, type Project } from './connection.ts';

/** A pending offer as stored (PendingFix without its count of occurrences). */
export type SegmentationOffer = Omit<PendingFix, 'occurrences'>;

/** Keeps the fix made on `pairId` as a pending offer; call inside the fix's transaction. */
export function keepOffer(project: Project, side: TokenSide, fix: SegmentationFixSpec, pairId: number, annotator: string): void {
  dbOf(project)
    .prepare(
      `INSERT INTO segmentation_offers (side, fix, pair_id, annotator, at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (side, fix) DO UPDATE SET pair_id = excluded.pair_id, annotator = excluded.annotator, at = excluded.at`,
    )
    .run(side, fixKey(fix), pairId, annotator, new Date().toISOString());
}

/** Every pending offer, the newest first. */
export function pendingOffers(project: Project): SegmentationOffer[] {
  const rows = dbOf(project)
    .prepare('SELECT id, side, fix, pair_id, annotator, at FROM segmentation_offers ORDER BY at DESC, id DESC')
    .all() as { id: number; side: TokenSide; fix: string; pair_id: number | null; annotator: string; at: string }[];
  return rows.map((r) => ({ id: r.id, side: r.side, fix: fixOfKey(r.fix), pairId: r.pair_id, annotator: r.annotator, at: r.at }));
}

/** Removes pending offer `id` (dismissed). */
export function dismissOffer(project: Project, id: number): void {
  const { changes } = dbOf(project).prepare('DELETE FROM segmentation_offers WHERE id = ?').run(id);
  if (changes === 0) throw new UserError(`no pending segmentation fix ${id} (applied or dismissed already)`);
}

/** Removes the offer of `fix` on `side`, if pending (the fix was applied corpus-wide). */
export function resolveOffer(project: Project, side: TokenSide, fix: SegmentationFixSpec): void {
  dbOf(project).prepare('DELETE FROM segmentation_offers WHERE side = ? AND fix = ?').run(side, fixKey(fix));
}
