// Login attempts rate-limited per account and per client address: after 5 failed logins for
// one account, or 20 from one address, within 15 minutes, further attempts are refused
// (without checking the password) until the oldest failure in the window is 15 minutes old.
// A successful login clears its account's failures. Counting failures only keeps a team
// member who logs in often unaffected; the per-address limit stops one client trying many
// names. Kept in memory: a sliding window of failure times per key, with an injected clock.
import type { Clock } from './sessions.ts';

export const WINDOW_MS = 15 * 60_000;
export const MAX_FAILURES_PER_ACCOUNT = 5;
export const MAX_FAILURES_PER_ADDRESS = 20;

export class LoginLimiter {
  private readonly failures = new Map<string, number[]>();

  constructor(private readonly now: Clock = Date.now) {}

  /** Milliseconds until `account` may try again from `address`, or 0 when it may now. */
  retryAfter(account: string, address: string): number {
    return Math.max(this.wait(`a:${account}`, MAX_FAILURES_PER_ACCOUNT), this.wait(`ip:${address}`, MAX_FAILURES_PER_ADDRESS));
  }

  failed(account: string, address: string): void {
    for (const key of [`a:${account}`, `ip:${address}`]) this.failures.set(key, [...this.recent(key), this.now()]);
  }

  succeeded(account: string): void {
    this.failures.delete(`a:${account}`);
  }

  private recent(key: string): number[] {
    const since = this.now() - WINDOW_MS;
    const kept = (this.failures.get(key) ?? []).filter((t) => t > since);
    if (kept.length) this.failures.set(key, kept);
    else this.failures.delete(key);
    return kept;
  }

  private wait(key: string, max: number): number {
    const times = this.recent(key);
    return times.length < max ? 0 : times[times.length - max] + WINDOW_MS - this.now();
  }
}
