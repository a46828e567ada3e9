// The mining API handlers (spread into handlers.ts): start a Mine job (train/mine-job.ts; a
// siamese head it is given is checked first, models/siamese/head-mining.ts, and recorded in the
// project for the Models page, store/siamese-heads.ts),
// list runs and pages of proposals, record the linguist's decisions, add the accepted
// proposals to the corpus as one import, delete a run (store/mined-pairs.ts).
import type { z } from 'zod';
import type { miningChannels, MiningResults } from '../../shared/mining-api.ts';
import { addAcceptedToCorpus, decideProposals, deleteMineRun, listMineRuns, listProposals, mineRun } from '../store/mined-pairs.ts';
import { resolve } from 'node:path';
import { checkSavedHead } from '../models/siamese/head-mining.ts';
import { recordHead } from '../store/siamese-heads.ts';
import { mineIntoProject } from '../train/mine-job.ts';
import { openProject, type AppContext } from './app-context.ts';

type Channel = keyof MiningResults;
type Handler<C extends Channel> = (
  ctx: AppContext,
  input: z.infer<(typeof miningChannels)[C]>,
) => Promise<MiningResults[C]> | MiningResults[C];

export const miningHandlers: { [C in Channel]: Handler<C> } = {
  'mine.start': (ctx, i) => {
    const target = openProject(ctx);
    if (i.head !== undefined) {
      checkSavedHead(i.head);
      recordHead(target, resolve(i.head));
    }
    return { jobId: ctx.jobs.start('mine', (job) => mineIntoProject(target, i, job)).jobId };
  },
  'mine.runs': (ctx) => listMineRuns(openProject(ctx)),
  'mine.proposals': (ctx, i) => ({ offset: i.offset, ...listProposals(openProject(ctx), i) }),
  'mine.decide': (ctx, i) => decideProposals(openProject(ctx), i.runId, { ids: i.ids, minScore: i.minScore }, i.decision),
  'mine.addAccepted': async (ctx, i) => {
    const s = openProject(ctx);
    return { ...(await addAcceptedToCorpus(s, i.runId)), run: mineRun(s, i.runId) };
  },
  'mine.deleteRun': (ctx, i) => {
    const s = openProject(ctx);
    deleteMineRun(s, i.runId);
    return listMineRuns(s);
  },
};
