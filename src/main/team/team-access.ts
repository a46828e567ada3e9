// The HTTP side of a team server (`mekong serve --team`): who is calling and whether the
// request may go on. server.ts asks it about every request instead of checking the URL token:
// - Host must be the configured address's (a DNS-rebinding page reaches the server under its
//   own name) and Origin, where a browser sends one, the configured origin; the WebSocket
//   upgrade must carry that Origin.
// - /auth/login, /auth/logout and /auth/session: login (rate-limited, login-limiter.ts) starts a
//   session (sessions.ts) in an HttpOnly, SameSite=Strict cookie, Secure when the origin is
//   https; the session's CSRF token is answered to the page, which sends it as
//   `x-mekong-csrf` with every POST.
// - each call's account is looked up in the team file, so a removed account, a reset password
//   or a changed role takes effect at its next call, also when `mekong user` changed it while
//   the server runs.
// - logins, failed logins, logouts and the calls that change what the team works on (imports,
//   exports, alignment, training, mining, blind mode) go to the team file's audit log.
import type { IncomingMessage } from 'node:http';
import type { Channel } from '../../shared/api.ts';
import { TeamFile, type Role } from '../store/team-file.ts';
import type { Caller } from '../store/team-file.ts';
import { LoginLimiter } from './login-limiter.ts';
import { UNKNOWN_ACCOUNT_HASH, verifyPassword } from './passwords.ts';
import { csrfMatches, Sessions, type Clock, type Session } from './sessions.ts';

const COOKIE = 'mekong_session';
const MAX_LOGIN_BODY = 4096;

/** The calls written to the audit log, by the event name they are logged under. */
const AUDITED: Partial<Record<Channel, string>> = {
  'import.start': 'import',
  'export.start': 'export',
  'align.start': 'align',
  'models.realign': 'align',
  'models.train': 'train',
  'models.delete': 'model-deleted',
  'mine.start': 'mine',
  'mine.addAccepted': 'import',
  'project.setAnnotatorsShare': 'blind-mode',
  'dictionaries.attach': 'dictionary',
  'dictionaries.detach': 'dictionary',
  'assignments.assign': 'assignment',
  'assignments.unassign': 'assignment',
};

/** An answer for server.ts to send as JSON. */
export interface Reply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export type Admission = { ok: true; caller: Caller; session: Session } | { ok: false; status: number; error: string };

/** What the page learns about its login (GET /auth/session, POST /auth/login). */
export interface SessionInfo {
  team: true;
  account: { name: string; role: Role; csrf: string } | null;
}

export interface TeamAccessOptions {
  /** The project file whose team file (`<project>.team`) holds the accounts. */
  projectPath: string;
  /** Behind a reverse proxy: the client's address is the last X-Forwarded-For entry (set by server.ts from its own option). */
  behindProxy?: boolean;
  now?: Clock;
}

export class TeamAccess {
  readonly file: TeamFile;
  private readonly sessions: Sessions;
  private readonly limiter: LoginLimiter;
  private readonly now: Clock;
  private origin = '';
  private host = '';
  private secure = false;
  private readonly sweeper: NodeJS.Timeout;

  constructor(private readonly options: TeamAccessOptions) {
    this.file = TeamFile.open(options.projectPath);
    this.now = options.now ?? Date.now;
    this.sessions = new Sessions(this.now);
    this.limiter = new LoginLimiter(this.now);
    this.sweeper = setInterval(() => this.sessions.sweep(), 60_000).unref();
  }

  /** The origin browsers use to reach the server (scheme://host[:port]): Host and Origin are checked against it. */
  setOrigin(origin: string): void {
    const url = new URL(origin);
    this.origin = url.origin;
    this.host = url.host;
    this.secure = url.protocol === 'https:';
  }

  /** Host (every request) and Origin (when sent; `requireOrigin` for the WebSocket) match the configured address; else why not. */
  foreign(req: IncomingMessage, requireOrigin = false): string | null {
    if (req.headers.host !== this.host) return `Host "${req.headers.host ?? ''}" is not this server's (${this.host})`;
    const origin = req.headers.origin;
    if (origin === undefined ? requireOrigin : origin !== this.origin)
      return `Origin "${origin ?? ''}" is not this server's (${this.origin})`;
    return null;
  }

  /** The caller of a request, from its session cookie; `stateChanging` calls also need the session's CSRF token. */
  admit(req: IncomingMessage, stateChanging: boolean, requireOrigin = false): Admission {
    const foreign = this.foreign(req, requireOrigin);
    if (foreign) return { ok: false, status: 403, error: foreign };
    const id = cookieOf(req, COOKIE);
    const session = id ? this.sessions.touch(id) : null;
    if (!session) return { ok: false, status: 401, error: 'not logged in, or the session expired: log in again' };
    const account = this.file.account(session.account);
    if (!account || account.passwordSetAt > session.startedAt) {
      this.sessions.end(session.id);
      return { ok: false, status: 401, error: 'the account was removed or its password reset: log in again' };
    }
    if (stateChanging && !csrfMatches(session, header(req, 'x-mekong-csrf')))
      return { ok: false, status: 403, error: 'missing or wrong CSRF token (x-mekong-csrf)' };
    return { ok: true, caller: { name: account.name, role: account.role }, session };
  }

  /** The answer to /auth/login, /auth/logout or /auth/session; null for any other path. */
  async route(req: IncomingMessage, url: URL): Promise<Reply | null> {
    if (!url.pathname.startsWith('/auth/')) return null;
    const foreign = this.foreign(req);
    if (foreign) return refused(403, foreign);
    if (url.pathname === '/auth/session' && req.method === 'GET') return this.sessionInfo(req);
    if (url.pathname === '/auth/login' && req.method === 'POST') return this.login(req);
    if (url.pathname === '/auth/logout' && req.method === 'POST') return this.logout(req);
    return refused(404, 'no such page');
  }

  /** Writes a successful call that changes what the team works on to the audit log. */
  recordCall(caller: Caller, channel: Channel, input: unknown): void {
    const event = AUDITED[channel];
    if (event) this.file.audit({ at: this.now(), actor: caller.name, event, detail: `${channel} ${JSON.stringify(input).slice(0, 300)}` });
  }

  close(): void {
    clearInterval(this.sweeper);
    this.file.close();
  }

  private sessionInfo(req: IncomingMessage): Reply {
    const a = this.admit(req, false);
    const info: SessionInfo = { team: true, account: a.ok ? { ...a.caller, csrf: a.session.csrf } : null };
    return { status: 200, body: info };
  }

  private async login(req: IncomingMessage): Promise<Reply> {
    const address = this.clientAddress(req);
    let name: string;
    let password: string;
    try {
      const body = JSON.parse(await readSmall(req)) as { name?: unknown; password?: unknown };
      if (typeof body.name !== 'string' || typeof body.password !== 'string') throw new Error('name and password are needed');
      name = body.name.trim();
      password = body.password;
    } catch (e) {
      return refused(400, `login: ${(e as Error).message}`);
    }
    const wait = this.limiter.retryAfter(name, address);
    if (wait > 0) {
      this.file.audit({ at: this.now(), actor: name || null, event: 'login-refused', detail: `rate limit, from ${address}` });
      return {
        ...refused(429, `too many failed logins: try again in ${Math.ceil(wait / 60_000)} min`),
        headers: { 'retry-after': String(Math.ceil(wait / 1000)) },
      };
    }
    const account = this.file.account(name);
    // an unknown name costs the same hash as a wrong password: the answer's time tells nothing
    const ok = await verifyPassword(password, account?.hash ?? UNKNOWN_ACCOUNT_HASH);
    if (!ok || !account) {
      this.limiter.failed(name, address);
      const who = account ? '' : `unknown name "${name.slice(0, 100)}", `;
      this.file.audit({ at: this.now(), actor: account ? name : null, event: 'login-failed', detail: `${who}from ${address}` });
      return refused(401, 'wrong name or password');
    }
    this.limiter.succeeded(name);
    const session = this.sessions.start(account.name);
    this.file.audit({ at: this.now(), actor: account.name, event: 'login', detail: `${account.role}, from ${address}` });
    const info: SessionInfo = { team: true, account: { name: account.name, role: account.role, csrf: session.csrf } };
    return { status: 200, body: info, headers: { 'set-cookie': this.cookie(session.id) } };
  }

  private logout(req: IncomingMessage): Reply {
    const a = this.admit(req, true);
    if (!a.ok) return refused(a.status, a.error);
    this.sessions.end(a.session.id);
    this.file.audit({ at: this.now(), actor: a.caller.name, event: 'logout', detail: `from ${this.clientAddress(req)}` });
    return { status: 200, body: null, headers: { 'set-cookie': this.cookie('', 0) } };
  }

  private cookie(value: string, maxAge?: number): string {
    return [
      `${COOKIE}=${value}`,
      'Path=/',
      'HttpOnly',
      'SameSite=Strict',
      ...(this.secure ? ['Secure'] : []),
      ...(maxAge === undefined ? [] : [`Max-Age=${maxAge}`]),
    ].join('; ');
  }

  private clientAddress(req: IncomingMessage): string {
    const forwarded = this.options.behindProxy ? header(req, 'x-forwarded-for')?.split(',').pop()?.trim() : undefined;
    return forwarded || req.socket.remoteAddress || 'unknown';
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return null;
}

async function readSmall(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const c of req as AsyncIterable<Buffer>) {
    text += c.toString('utf8');
    if (text.length > MAX_LOGIN_BODY) throw new Error('request body too large');
  }
  return text;
}

function refused(status: number, error: string): Reply {
  return { status, body: { error, kind: 'input' } };
}
