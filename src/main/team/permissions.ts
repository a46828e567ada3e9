// Who may call what on a team server: every API channel of the shared contract with the roles
// allowed to call it. The table's type is keyed by the contract's Channel, so a channel added
// to the contract and missing here does not compile. dispatch.ts runs `refusal` before anything
// else of a call made by a logged-in account; the desktop app and the single-user server have
// no caller and are not checked.
//
// In words: an annotator reads the project, the model alignments and their own gold, and edits
// their own gold, rejections, notes and the pairs' tokens; an adjudicator also sees every
// annotator's work (pair details, agreement, adjudication) and alone writes the adjudicated gold; a manager also changes the
// project's settings (languages, link tags, blind mode, encoder, dictionaries), imports,
// aligns, trains, mines, curates, resegments, exports and cancels jobs. What a team server does
// not offer at all: opening, creating or closing another project (it serves the one it was
// started with, whose accounts these are), native file dialogs, and setting the annotator
// name (it is the account's).
import type { Channel } from '../../shared/api.ts';
import type { AppContext } from '../api/app-context.ts';
import { alignmentSources } from '../store/alignments.ts';
import type { Caller, Role } from '../store/team-file.ts';

/** The logged-in account a call is made for. */
const EVERYONE: readonly Role[] = ['annotator', 'adjudicator', 'manager'];
const REVIEWERS: readonly Role[] = ['adjudicator', 'manager'];
const ADJUDICATOR: readonly Role[] = ['adjudicator'];
const MANAGER: readonly Role[] = ['manager'];
const NOBODY: readonly Role[] = [];

export const PERMISSIONS = {
  'app.info': EVERYONE,
  'project.create': NOBODY,
  'project.open': NOBODY,
  'project.saveCopy': NOBODY,
  'project.openSample': NOBODY,
  'project.close': NOBODY,
  'project.info': EVERYONE,
  'project.setLinkTags': MANAGER,
  'project.setAnnotatorsShare': MANAGER,
  'project.setLanguages': MANAGER,
  'project.setEncoder': MANAGER,
  'pairs.list': EVERYONE,
  // every layer of the pair, other annotators' gold included
  'pairs.get': REVIEWERS,
  'pairs.update': EVERYONE,
  'pairs.exclude': MANAGER,
  'tokens.split': EVERYONE,
  'tokens.merge': EVERYONE,
  // a corpus-wide segmentation change
  'tokens.bulkFix': MANAGER,
  // a word list file read for the Re-segment dialog (a manager's), nothing kept
  'wordList.read': MANAGER,
  'wordList.list': EVERYONE,
  'wordList.remove': MANAGER,
  'segmentation.pending': EVERYONE,
  'segmentation.dismiss': MANAGER,
  'edits.undo': EVERYONE,
  'edits.redo': EVERYONE,
  'settings.setAnnotator': NOBODY,
  'import.start': MANAGER,
  'export.start': MANAGER,
  'export.downloads': MANAGER,
  'align.start': MANAGER,
  'curation.score': MANAGER,
  'resegment.start': MANAGER,
  'jobs.cancel': MANAGER,
  'dialog.openFile': NOBODY,
  'dialog.saveFile': NOBODY,
  'editor.get': EVERYONE,
  'editor.setGold': EVERYONE,
  'editor.setRejected': EVERYONE,
  'queue.list': EVERYONE,
  'lexicon.list': EVERYONE,
  'lexicon.occurrences': EVERYONE,
  // gold links added or removed and model links rejected: the caller's own gold and rejections
  'lexicon.bulk': EVERYONE,
  'agreement.report': REVIEWERS,
  'adjudication.get': REVIEWERS,
  // the project's adjudicated gold: the adjudicator's alone
  'adjudication.save': ADJUDICATOR,
  'models.list': EVERYONE,
  'models.heads': EVERYONE,
  'models.metrics': EVERYONE,
  'models.train': MANAGER,
  'models.timeRun': MANAGER,
  'models.realign': MANAGER,
  'models.delete': MANAGER,
  'dictionaries.list': EVERYONE,
  'dictionaries.attach': MANAGER,
  'dictionaries.detach': MANAGER,
  'dictionaries.shipped': EVERYONE,
  'dictionaries.useShipped': MANAGER,
  'mine.start': MANAGER,
  'mine.runs': MANAGER,
  'mine.proposals': MANAGER,
  'mine.decide': MANAGER,
  'mine.addAccepted': MANAGER,
  'mine.deleteRun': MANAGER,
  // everyone's assignments and progress; an annotator's answer holds their own only (team-handlers.ts)
  'assignments.list': EVERYONE,
  'assignments.assign': MANAGER,
  'assignments.unassign': MANAGER,
} as const satisfies Record<Channel, readonly Role[]>;

export function mayCall(role: Role, channel: Channel): boolean {
  return (PERMISSIONS[channel] as readonly Role[]).includes(role);
}

/** The channels `role` may call: what the page offers that role (app.info), read from the one table. */
export function callableChannels(role: Role): Channel[] {
  return (Object.keys(PERMISSIONS) as Channel[]).filter((c) => mayCall(role, c));
}

/**
 * The input as the caller's call: an annotator's `annotator` field (the review queue's "edited
 * by" filter) and `assignedTo` (a pair list's or queue's assignment filter, top level or in the
 * filter) are their own name whatever the page sent. Who an edit is by never comes from the
 * input at all: dispatch gives handlers the caller's name as the context's annotator.
 */
export function asCallerInput(caller: Caller, input: unknown): unknown {
  if (caller.role !== 'annotator' || typeof input !== 'object' || input === null) return input;
  const own = <T extends object>(o: T): T => ({
    ...o,
    ...('annotator' in o ? { annotator: caller.name } : {}),
    ...('assignedTo' in o ? { assignedTo: caller.name } : {}),
  });
  const call = own(input);
  const filter = (call as { filter?: unknown }).filter;
  return typeof filter === 'object' && filter !== null && !Array.isArray(filter) ? { ...call, filter: own(filter) } : call;
}

/** Input fields that name an alignment a call reads (a review queue's, a concordance's model, an agreement's pair). */
const ALIGNMENT_FIELDS = ['alignmentId', 'versusId', 'modelId', 'reference', 'candidate', 'left', 'right'] as const;

function alignmentIdsOf(input: unknown): number[] {
  if (typeof input !== 'object' || input === null) return [];
  const o = input as Record<string, unknown>;
  const ids = ALIGNMENT_FIELDS.map((f) => o[f]).filter((v): v is number => typeof v === 'number');
  const filter = o.filter as Record<string, unknown> | undefined;
  if (typeof filter?.alignmentId === 'number') ids.push(filter.alignmentId);
  return ids;
}

/**
 * Why `caller` may not make this call, or null when they may. Besides the table: an annotator
 * names no other annotator's gold layer in any field (a queue ordered by it, a concordance of
 * it, a pair list filtered by it would show its links), whether or not the project is blind.
 */
export function refusal(ctx: AppContext, caller: Caller, channel: Channel, input: unknown): string | null {
  if (!mayCall(caller.role, channel)) {
    const allowed = PERMISSIONS[channel] as readonly Role[];
    return allowed.length
      ? `${channel} is for the ${allowed.join(' or ')} role; ${caller.name}'s role is ${caller.role}`
      : `${channel} is not offered by a team server`;
  }
  if (caller.role !== 'annotator' || !ctx.store) return null;
  const ids = alignmentIdsOf(input);
  if (!ids.length) return null;
  const others = new Set(
    alignmentSources(ctx.store)
      .filter((a) => a.origin === 'gold' && a.source !== caller.name)
      .map((a) => a.id),
  );
  const other = ids.find((id) => others.has(id));
  return other === undefined ? null : `alignment ${other} is another annotator's gold, which an annotator does not see`;
}
