// The end of the next job a test's context runs: its message when done, its error when it
// failed or was cancelled.
import type { AppContext } from '../../../src/main/api/app-context.ts';

export function jobOutcome(ctx: AppContext): Promise<string> {
  return new Promise((resolve, reject) =>
    ctx.jobs.onEvent((e) => {
      if (e.type === 'job.done') resolve(e.message ?? '');
      if (e.type === 'job.failed') reject(new Error(e.error));
      if (e.type === 'job.cancelled') reject(new Error('cancelled'));
    }),
  );
}
