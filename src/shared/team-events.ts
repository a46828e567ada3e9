// What a team server pushes over the event socket besides job events, and what the page
// sends on it: presence (which account has which pair open, as far as the receiving account
// may know it) and a pair changed by another account while it is open here, so that the
// page reloads it. The page sends the pair it has open. team/presence.ts decides who sees what.
import type { JobEvent } from './api.ts';

/** The part of a pair another account changed: their own gold, the adjudicated gold, a shared status or note, its tokens, or an undo/redo. */
export type ChangedLayer = 'gold' | 'adjudicated' | 'review' | 'tokens' | 'undo';

export type TeamEvent =
  /** Every pair someone else has open, with their account names (sorted), as the receiver may see them. */
  | { type: 'presence'; pairs: { pairId: number; names: string[] }[] }
  /** `by` is '' when the receiver may not learn who it was (another annotator in blind mode). */
  | { type: 'pair.changed'; pairId: number; layer: ChangedLayer; by: string };

/** The page's message on the socket: the pair it has open now (null: none). */
export interface OpenPairMessage {
  type: 'open';
  pairId: number | null;
}

export function isTeamEvent(e: JobEvent | TeamEvent): e is TeamEvent {
  return e.type === 'presence' || e.type === 'pair.changed';
}
