// A team page's view of the other accounts (team/presence.ts on the server): which pairs
// others have open, by name, for the "open by NAME" badges of the editor and the pair list,
// and the newest change someone else made to a pair, which the editor answers by reading the
// pair again. It tells the server which pair this page has open.
import type { TeamEvent } from '../../../shared/team-events.ts';

/** The part of the transport presence uses (HttpApi on a team server). */
export interface TeamChannel {
  onTeamEvent(listener: (event: TeamEvent) => void): () => void;
  openPair(pairId: number | null): void;
}

export class PresenceState {
  /** Pair id → the names of the others who have it open. */
  byPair = $state<Record<number, string[]>>({});
  /** The newest change another account made to a pair this page has open (`seq` counts them). */
  lastChange = $state<(Extract<TeamEvent, { type: 'pair.changed' }> & { seq: number }) | null>(null);

  constructor(private readonly channel: TeamChannel) {
    channel.onTeamEvent((e) => {
      if (e.type === 'presence') this.byPair = Object.fromEntries(e.pairs.map((p) => [p.pairId, p.names]));
      else this.lastChange = { ...e, seq: (this.lastChange?.seq ?? 0) + 1 };
    });
  }

  /** The others who have pair `pairId` open. */
  namesOn(pairId: number | undefined): string[] {
    return pairId === undefined ? [] : (this.byPair[pairId] ?? []);
  }

  /** Tells the server this page has `pairId` open now (null: none). */
  open(pairId: number | null): void {
    this.channel.openPair(pairId);
  }
}
