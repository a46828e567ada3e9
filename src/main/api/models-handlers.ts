// The Models page's API handlers (spread into handlers.ts): training runs of the neural
// aligner on the project, their curves and checkpoints, re-alignment with a checkpoint.
// (Being built: every channel answers with a clear error until its handler lands.)
import type { z } from 'zod';
import type { modelsChannels, ModelsResults } from '../../shared/models-api.ts';
import { UserError } from '../errors.ts';
import type { AppContext } from './context.ts';

type Channel = keyof ModelsResults;
type Handler<C extends Channel> = (ctx: AppContext, input: z.infer<(typeof modelsChannels)[C]>) => ModelsResults[C] | Promise<ModelsResults[C]>;

const pending = (): never => {
  throw new UserError('model training is not available in this build yet');
};

export const modelsHandlers: { [C in Channel]: Handler<C> } = {
  'models.list': pending,
  'models.train': pending,
  'models.metrics': pending,
  'models.realign': pending,
  'models.delete': pending,
};
