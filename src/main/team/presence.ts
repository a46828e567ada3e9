// Live updates between the accounts of a team server, over the event socket (server.ts):
// - presence: each socket says which pair its page has open (`{type: 'open', pairId}`); every
//   account is told which pairs others have open, by name, whenever that changes for it;
// - changes: after a successful call that changed a pair, the others who have that pair open
//   and may see the change are told (`pair.changed`), and their page reloads it.
// Who may learn what (`sees`): adjudicators and managers see everyone; everyone sees
// adjudicators and managers; annotators see each other only when the project's annotators
// share their work. In blind mode an annotator is not told that another annotator has the
// same pair open: it would name their co-annotator of a doubly annotated pair and invite
// comparing notes, which blind double annotation exists to prevent.
import type { Channel } from '../../shared/api.ts';
import type { ChangedLayer, TeamEvent } from '../../shared/team-events.ts';
import type { Caller } from '../store/team-file.ts';

/** A socket as presence needs it. */
export interface Peer {
  send(data: string): void;
}

interface Member {
  caller: Caller;
  pairId: number | null;
  /** The presence message last sent to it, so an unchanged one is not sent again. */
  sent: string;
}

/** Whether `viewer` may learn what `other` does (see the header); `blind`: the annotators do not share their work. */
export function sees(viewer: Caller, other: Caller, blind: boolean): boolean {
  return viewer.role !== 'annotator' || other.role !== 'annotator' || !blind;
}

/** The pair and layer a successful call changed, or null when it changed none another page shows. */
function changeOf(channel: Channel, input: unknown, value: unknown): { pairId: number; layer: ChangedLayer } | null {
  const i = input as { pairId?: number; id?: number; note?: string; status?: string };
  switch (channel) {
    case 'editor.setGold':
    case 'editor.setRejected':
      return { pairId: i.pairId!, layer: 'gold' };
    case 'adjudication.save':
      return { pairId: i.pairId!, layer: 'adjudicated' };
    case 'tokens.split':
    case 'tokens.merge':
      return { pairId: i.pairId!, layer: 'tokens' };
    case 'pairs.update':
      return i.note !== undefined || i.status !== undefined ? { pairId: i.id!, layer: 'review' } : null;
    case 'edits.undo':
    case 'edits.redo': {
      const pair = (value as { pair: { id: number } | null } | null)?.pair;
      return pair ? { pairId: pair.id, layer: 'undo' } : null;
    }
    default:
      return null;
  }
}

export class Presence {
  private readonly members = new Map<Peer, Member>();

  /** `blind`: whether the project's annotators work apart now (read at each message: a manager may switch it). */
  constructor(private readonly blind: () => boolean) {}

  join(peer: Peer, caller: Caller): void {
    this.members.set(peer, { caller, pairId: null, sent: '' });
    this.publish();
  }

  leave(peer: Peer): void {
    const member = this.members.get(peer);
    this.members.delete(peer);
    if (member?.pairId !== null) this.publish();
  }

  /** A message the page sent on its socket: the pair it has open; anything else is ignored. */
  receive(peer: Peer, data: string): void {
    const member = this.members.get(peer);
    if (!member) return;
    let message: unknown;
    try {
      message = JSON.parse(data);
    } catch {
      return;
    }
    const { type, pairId } = (message ?? {}) as { type?: unknown; pairId?: unknown };
    if (type !== 'open' || !(pairId === null || (Number.isSafeInteger(pairId) && (pairId as number) > 0))) return;
    if (member.pairId === pairId) return;
    member.pairId = pairId as number | null;
    this.publish();
  }

  /** What `viewer` is told: the pairs others it may see have open, with their names. */
  snapshot(viewer: Caller): Extract<TeamEvent, { type: 'presence' }> {
    const blind = this.blind();
    const byPair = new Map<number, Set<string>>();
    for (const { caller, pairId } of this.members.values()) {
      if (pairId === null || caller.name === viewer.name || !sees(viewer, caller, blind)) continue;
      (byPair.get(pairId) ?? byPair.set(pairId, new Set()).get(pairId)!).add(caller.name);
    }
    const pairs = [...byPair].map(([pairId, names]) => ({ pairId, names: [...names].sort() })).sort((a, b) => a.pairId - b.pairId);
    return { type: 'presence', pairs };
  }

  /** Tells the others who have the pair open and may see it that `by`'s call changed it. */
  changed(by: Caller, channel: Channel, input: unknown, value: unknown): void {
    const change = changeOf(channel, input, value);
    if (!change) return;
    const blind = this.blind();
    for (const [peer, { caller, pairId }] of this.members) {
      if (pairId !== change.pairId || caller.name === by.name) continue;
      const visible = sees(caller, by, blind);
      // the adjudicated gold is the reviewers'; tokens are everyone's, whoever changed them
      const told = change.layer === 'adjudicated' ? caller.role !== 'annotator' : change.layer === 'tokens' || visible;
      if (!told) continue;
      const event: TeamEvent = { type: 'pair.changed', pairId: change.pairId, layer: change.layer, by: visible ? by.name : '' };
      peer.send(JSON.stringify(event));
    }
  }

  /** Sends each member its presence snapshot when it differs from the one it has. */
  private publish(): void {
    for (const [peer, member] of this.members) {
      const text = JSON.stringify(this.snapshot(member.caller));
      if (text === member.sent) continue;
      member.sent = text;
      peer.send(text);
    }
  }
}
