// The answers of calls sent again. A page whose connection dropped after the server ran a
// call but before its answer arrived sends the call again; a change that is not a whole
// layer (an undo or redo, a token merge or split, a note saved over the one it replaced)
// must not run twice. So each change the editor sends carries a request id (the header
// REQUEST_ID_HEADER), the same on every re-send, and a repeat of an id from the same account
// is answered with the first answer and runs nothing:
// - while the first call still runs, the repeat waits for its answer (kept here, in memory,
//   only as long as the call runs);
// - once it has run, from the project file (store/answered-requests.ts): the id was written
//   in the transaction of the change it made and its answer saved as it returned, so a
//   server started after the first one stopped knows it too.

import type { ApiErrorBody } from '../../shared/api.ts';
import { inRequest, saveAnswer, savedAnswer, type CallRequest } from '../store/answered-requests.ts';
import type { ProjectStore } from '../store/project-store.ts';
import type { DispatchResult } from './dispatch.ts';

/** A request id as a page makes one: letters, digits and `_.:-`, at most 100 of them. */
export function isRequestId(id: string): boolean {
  return /^[\w.:-]{1,100}$/.test(id);
}

/** The answer to a repeat of a change whose first answer the server never saved (it stopped as it ran). */
const LOST: { ok: false; error: ApiErrorBody } = {
  ok: false,
  error: {
    error: 'this change was saved, but the server stopped before answering it: reload the pair to see it',
    kind: 'input',
  },
};

export class CallReplies {
  /** The calls with a request id still running, by project, account, channel and id. */
  private readonly running = new Map<string, Promise<DispatchResult>>();

  /**
   * `run`'s answer, run once per request in `project` (null: none open, then only repeats
   * while it runs are known): a repeat gets the first call's answer, a failure too (it was
   * the answer the page missed).
   */
  once(project: ProjectStore | null, request: CallRequest, run: () => Promise<DispatchResult>): Promise<DispatchResult> {
    const key = [project?.path ?? '', request.account, request.channel, request.id].join('\n');
    const running = this.running.get(key);
    if (running) return running;
    const saved = project ? savedAnswer(project, request) : undefined;
    if (saved !== undefined) return Promise.resolve(saved === null ? LOST : (JSON.parse(saved) as DispatchResult));
    const answer = this.runAndSave(project, request, run).finally(() => this.running.delete(key));
    this.running.set(key, answer);
    return answer;
  }

  private async runAndSave(
    project: ProjectStore | null,
    request: CallRequest,
    run: () => Promise<DispatchResult>,
  ): Promise<DispatchResult> {
    if (!project) return run();
    const answer = await inRequest(project, request, run);
    if (project.isOpen() && !project.readOnly) {
      try {
        saveAnswer(project, request, JSON.stringify(answer));
      } catch {
        // the project cannot be written now (its disk full, its file gone): the page still
        // gets this answer; a repeat after a restart finds the id of a change without it (LOST)
      }
    }
    return answer;
  }
}
