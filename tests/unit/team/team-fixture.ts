// A team server for the team tests: a real project file (two pairs, a model alignment) with
// its real team file holding one account per role, served by startServer in team mode; and
// a client that logs in, keeps the session cookie and sends the CSRF token.
import { join } from 'node:path';
import { createContext } from '../../../src/main/api/create-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { startServer, type ServerHandle, type ServerOptions } from '../../../src/main/server.ts';
import { TeamFile, type Role } from '../../../src/main/store/team-file.ts';
import { hashPassword } from '../../../src/main/team/passwords.ts';
import type { Clock } from '../../../src/main/team/sessions.ts';
import { model, project } from '../review/fixture.ts';

export const PASSWORDS: Record<Role, string> = {
  annotator: 'annotator-password-0123',
  adjudicator: 'adjudicator-password-0123',
  manager: 'manager-password-0123',
};
/** The account of each role: ann (annotator), adi (adjudicator), max (manager); bob is a second annotator. */
export const NAMES: Record<Role, string> = { annotator: 'ann', adjudicator: 'adi', manager: 'max' };

export interface TeamServer {
  ctx: AppContext;
  server: ServerHandle;
  projectPath: string;
  pairIds: number[];
  modelId: number;
  base: string;
  close(): Promise<void>;
}

/** A served project with accounts ann, bob (annotators), adi (adjudicator), max (manager). */
export async function teamServer(dir: string, options: Omit<ServerOptions, 'team'> & { now?: Clock } = {}): Promise<TeamServer> {
  const { store, ids } = project(dir, [
    ['a b c', 'x y z'],
    ['d e', 'u v'],
  ]);
  const modelId = model(store, ids, [[[0, 0, 0.9]], [[1, 1, 0.8]]]);
  const file = TeamFile.open(store.path, { create: true });
  const at = (options.now ?? Date.now)();
  for (const role of Object.keys(NAMES) as Role[]) file.addAccount(NAMES[role], role, await hashPassword(PASSWORDS[role]), at);
  file.addAccount('bob', 'annotator', await hashPassword(PASSWORDS.annotator), at);
  file.close();
  const ctx = createContext('browser', 'nobody', join(dir, 'data'));
  ctx.store = store;
  const { now, ...rest } = options;
  const server = await startServer(ctx, { ...rest, team: { projectPath: store.path, now } });
  return {
    ctx,
    server,
    projectPath: store.path,
    pairIds: ids,
    modelId,
    base: server.url.replace(/\/$/, ''),
    close: async () => {
      await server.close();
      ctx.store?.close();
    },
  };
}

/** A logged-in browser: its session cookie and CSRF token on every call. */
export class Client {
  cookie = '';
  csrf = '';

  constructor(readonly base: string) {}

  async login(name: string, password: string): Promise<Response> {
    const res = await fetch(`${this.base}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name, password }),
    });
    if (res.ok) {
      this.cookie = res.headers.get('set-cookie')!.split(';')[0];
      this.csrf = ((await res.clone().json()) as { account: { csrf: string } }).account.csrf;
    }
    return res;
  }

  call(channel: string, input: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return fetch(`${this.base}/api/${channel}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: this.cookie, 'x-mekong-csrf': this.csrf, ...headers },
      body: JSON.stringify(input),
    });
  }
}

export async function loggedIn(base: string, role: Role | 'bob'): Promise<Client> {
  const client = new Client(base);
  const res = role === 'bob' ? await client.login('bob', PASSWORDS.annotator) : await client.login(NAMES[role], PASSWORDS[role]);
  if (!res.ok) throw new Error(`login as ${role}: ${res.status} ${await res.text()}`);
  return client;
}
