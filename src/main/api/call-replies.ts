// The answers of calls sent again. A page whose connection dropped after the server ran a
// call but before its answer arrived sends the call again; a change that is not a whole
// layer (an undo or redo, a token merge or split, a note saved over the one it replaced)
// must not run twice. So each change the editor sends carries a request id (the header
// REQUEST_ID_HEADER), the same on every re-send, and the server keeps each id's answer per
// project and account: a repeat is answered with the first answer (once that is ready, when
// the first call is still running) and runs nothing. Kept in memory, the newest
// REPLIES_PER_SCOPE answers of each project and account for REPLY_TTL_MS: a page re-sends
// every two seconds until answered, so its one unanswered call is among its account's newest.
// The edits path keeps no request log in the project file, so a restarted server does not
// know the ids its predecessor answered.

/** How long an answer is kept for a re-send (a page re-sends while it stays open). */
export const REPLY_TTL_MS = 60 * 60_000;
/** Answers kept per project and account (a page has one call under way at a time; a few tabs, a few each). */
export const REPLIES_PER_SCOPE = 64;

/** A request id as a page makes one: letters, digits and `_.:-`, at most 100 of them. */
export function isRequestId(id: string): boolean {
  return /^[\w.:-]{1,100}$/.test(id);
}

interface Reply {
  at: number;
  answer: Promise<unknown>;
}

export class CallReplies {
  /** Per scope (project and account), its answers by key, oldest first. */
  private readonly scopes = new Map<string, Map<string, Reply>>();

  constructor(
    private readonly ttlMs = REPLY_TTL_MS,
    private readonly perScope = REPLIES_PER_SCOPE,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * `run`'s answer, run once per `key` in `scope`: a later call with the same key gets the
   * first call's answer (a failed call's failure too: it was the answer the page missed).
   */
  once<T>(scope: string, key: string, run: () => Promise<T>): Promise<T> {
    const at = this.now();
    this.expire(at);
    let replies = this.scopes.get(scope);
    const kept = replies?.get(key);
    if (kept) return kept.answer as Promise<T>;
    if (!replies) this.scopes.set(scope, (replies = new Map()));
    const answer = run();
    replies.set(key, { at, answer });
    if (replies.size > this.perScope) replies.delete(replies.keys().next().value!);
    return answer;
  }

  /** Drops the answers older than the time they are kept for, and scopes left empty. */
  private expire(now: number): void {
    for (const [scope, replies] of this.scopes) {
      for (const [key, reply] of replies) {
        if (now - reply.at < this.ttlMs) break;
        replies.delete(key);
      }
      if (!replies.size) this.scopes.delete(scope);
    }
  }
}
