// A team server's login sessions, kept in the server's memory (a restart logs everyone out)
// and identified by a random 256-bit id that travels only in an HttpOnly cookie. A session
// ends after 30 minutes without a call (idle limit) and 12 hours after login whatever
// happens (absolute limit), on logout, and when its account is removed or its password reset
// (team-access.ts looks the account up on every call). Each session has its own CSRF token,
// which the page sends in a header with every state-changing call: a page on another site can
// make the browser send the cookie but cannot read the token. Time comes from an injected clock.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const IDLE_LIMIT_MS = 30 * 60_000;
export const ABSOLUTE_LIMIT_MS = 12 * 3_600_000;

export interface Session {
  id: string;
  account: string;
  csrf: string;
  startedAt: number;
  lastSeenAt: number;
}

export type Clock = () => number;

export class Sessions {
  private readonly byId = new Map<string, Session>();

  constructor(private readonly now: Clock = Date.now) {}

  start(account: string): Session {
    const at = this.now();
    const session = {
      id: randomBytes(32).toString('base64url'),
      account,
      csrf: randomBytes(32).toString('base64url'),
      startedAt: at,
      lastSeenAt: at,
    };
    this.byId.set(session.id, session);
    return session;
  }

  /** The live session of this id, its idle timer restarted; null (and forgotten) when it expired. */
  touch(id: string): Session | null {
    const session = this.byId.get(id);
    if (!session) return null;
    const at = this.now();
    if (expired(session, at)) {
      this.byId.delete(id);
      return null;
    }
    session.lastSeenAt = at;
    return session;
  }

  end(id: string): void {
    this.byId.delete(id);
  }

  /** Expired sessions forgotten (called now and then, so that a busy server's map stays small). */
  sweep(): void {
    const at = this.now();
    for (const [id, session] of this.byId) if (expired(session, at)) this.byId.delete(id);
  }
}

function expired(session: Session, at: number): boolean {
  return at - session.lastSeenAt > IDLE_LIMIT_MS || at - session.startedAt > ABSOLUTE_LIMIT_MS;
}

/** Whether the CSRF token a request carries is its session's (constant-time). */
export function csrfMatches(session: Session, given: string | undefined): boolean {
  if (!given) return false;
  const a = Buffer.from(session.csrf);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}
