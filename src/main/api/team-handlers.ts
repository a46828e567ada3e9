// The team's API handlers (spread into handlers.ts): assignments. Writing them is the
// manager's (team/permissions.ts); on a team server an annotator reads their own assignment
// only, whatever they ask for.
import type { TeamResults } from '../../shared/team-api.ts';
import type { teamChannels } from '../../shared/team-api.ts';
import type { z } from 'zod';
import { assignmentsReport, assignPairs, unassignPairs } from '../review/assign-pairs.ts';
import { openProject, type AppContext } from './app-context.ts';

type Channel = keyof TeamResults;
type Handler<C extends Channel> = (ctx: AppContext, input: z.infer<(typeof teamChannels)[C]>) => TeamResults[C];

const store = openProject;

/** Whose assignment the caller may read: an annotator's own only, else everyone's (null). */
const readableBy = (ctx: AppContext): string | null => (ctx.caller?.role === 'annotator' ? ctx.caller.name : null);

export const teamHandlers: { [C in Channel]: Handler<C> } = {
  'assignments.list': (ctx) => assignmentsReport(store(ctx), readableBy(ctx)),
  'assignments.assign': (ctx, i) => ({ added: assignPairs(store(ctx), i.annotators, i.how), report: assignmentsReport(store(ctx)) }),
  'assignments.unassign': (ctx, i) => ({
    removed: unassignPairs(store(ctx), i.annotator, i.ranges),
    report: assignmentsReport(store(ctx)),
  }),
};
