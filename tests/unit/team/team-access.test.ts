// A team server's logins and sessions against a real server and real team file: login and
// logout, idle and absolute session expiry (an injected clock), CSRF refusal, login rate
// limits per account and per address, Host and Origin refusal, the WebSocket's checks, an
// account removed or reset while logged in, and the audit log of it all.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import WebSocket from 'ws';
import { TeamFile } from '../../../src/main/store/team-file.ts';
import { hashPassword } from '../../../src/main/team/passwords.ts';
import { ABSOLUTE_LIMIT_MS, IDLE_LIMIT_MS } from '../../../src/main/team/sessions.ts';
import { MAX_FAILURES_PER_ACCOUNT, MAX_FAILURES_PER_ADDRESS, WINDOW_MS } from '../../../src/main/team/login-limiter.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { Client, loggedIn, NAMES, PASSWORDS, teamServer, type TeamServer } from './team-fixture.ts';

const dir = tempDir('mekong-team-');
let now = Date.UTC(2026, 10, 27, 9);
let team: TeamServer;

beforeAll(async () => {
  team = await teamServer(dir, { now: () => now });
});
afterAll(() => team.close());

/** A raw request with the headers given exactly (fetch sets Host itself). */
function raw(path: string, headers: Record<string, string>, method = 'GET'): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: team.server.port, path, method, headers }, (res) => {
      res.resume();
      resolve(res.statusCode!);
    });
    req.on('error', reject);
    req.end(method === 'POST' ? '{}' : undefined);
  });
}

function socket(headers: Record<string, string>): Promise<'open' | 'refused'> {
  const ws = new WebSocket(`ws://127.0.0.1:${team.server.port}/events`, { headers });
  return new Promise((resolve) => {
    ws.once('open', () => {
      ws.close();
      resolve('open');
    });
    ws.once('error', () => resolve('refused'));
  });
}

describe('team server logins', () => {
  test('serves no token, logs in with the account, answers its session, logs out', async () => {
    expect(team.server.url).toBe(`http://127.0.0.1:${team.server.port}/`);
    expect(team.server.token).toBe('');
    const anonymous = await fetch(`${team.base}/api/app.info`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
    const client = new Client(team.base);
    const res = await client.login('ann', PASSWORDS.annotator);
    expect(res.status).toBe(200);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^mekong_session=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict$/);
    const info = await (await client.call('app.info', {})).json();
    expect(info).toMatchObject({ annotator: 'ann', mode: 'browser' });
    const session = await (await fetch(`${team.base}/auth/session`, { headers: { cookie: client.cookie } })).json();
    expect(session).toEqual({ team: true, account: { name: 'ann', role: 'annotator', csrf: client.csrf } });
    const out = await fetch(`${team.base}/auth/logout`, {
      method: 'POST',
      headers: { cookie: client.cookie, 'x-mekong-csrf': client.csrf },
    });
    expect(out.status).toBe(200);
    expect(out.headers.get('set-cookie')).toMatch(/^mekong_session=; .*Max-Age=0/);
    expect((await client.call('app.info', {})).status).toBe(401);
  });

  test('a wrong password or an unknown name is refused alike', async () => {
    const wrong = await new Client(team.base).login('adi', 'not-the-password');
    const unknown = await new Client(team.base).login('nobody-here', 'whatever');
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(await wrong.json()).toEqual(await unknown.json());
  });

  test('a session ends after the idle limit, and after the absolute limit however busy', async () => {
    const client = await loggedIn(team.base, 'manager');
    now += IDLE_LIMIT_MS - 1000;
    expect((await client.call('app.info', {})).status).toBe(200);
    now += IDLE_LIMIT_MS + 1;
    expect((await client.call('app.info', {})).status).toBe(401);

    const busy = await loggedIn(team.base, 'manager');
    for (let t = 0; t < ABSOLUTE_LIMIT_MS; t += IDLE_LIMIT_MS / 2) {
      expect((await busy.call('app.info', {})).status).toBe(200);
      now += IDLE_LIMIT_MS / 2;
    }
    now += 1;
    expect((await busy.call('app.info', {})).status).toBe(401);
  });

  test("refuses a state-changing call without the CSRF token or with another session's", async () => {
    const ann = await loggedIn(team.base, 'annotator');
    const bob = await loggedIn(team.base, 'bob');
    const pairId = team.pairIds[0];
    const missing = await ann.call('pairs.update', { id: pairId, note: 'x' }, { 'x-mekong-csrf': '' });
    expect(missing.status).toBe(403);
    expect(((await missing.json()) as { error: string }).error).toMatch(/CSRF/);
    expect((await ann.call('pairs.update', { id: pairId, note: 'x' }, { 'x-mekong-csrf': bob.csrf })).status).toBe(403);
    expect((await ann.call('pairs.update', { id: pairId, note: 'x', noteBase: '' })).status).toBe(200);
  });

  test('refuses a Host or an Origin other than the configured address, and a WebSocket without Origin or session', async () => {
    const client = await loggedIn(team.base, 'annotator');
    const host = `127.0.0.1:${team.server.port}`;
    const ok = { host, cookie: client.cookie, 'x-mekong-csrf': client.csrf, 'content-type': 'application/json' };
    expect(await raw('/api/app.info', ok, 'POST')).toBe(200);
    expect(await raw('/api/app.info', { ...ok, host: `evil.example:${team.server.port}` }, 'POST')).toBe(403);
    expect(await raw('/api/app.info', { ...ok, origin: 'https://evil.example' }, 'POST')).toBe(403);
    expect(await raw('/api/app.info', { ...ok, origin: team.base }, 'POST')).toBe(200);
    expect(await raw('/', { host: 'rebound.example' })).toBe(403);
    expect(await raw('/auth/session', { host: 'rebound.example' })).toBe(403);

    expect(await socket({ cookie: client.cookie, origin: team.base })).toBe('open');
    expect(await socket({ cookie: client.cookie })).toBe('refused');
    expect(await socket({ cookie: client.cookie, origin: 'https://evil.example' })).toBe('refused');
    expect(await socket({ origin: team.base })).toBe('refused');
  });

  test('rate-limits failed logins per account, then per address, until the window passes', async () => {
    for (let k = 0; k < MAX_FAILURES_PER_ACCOUNT; k++) expect((await new Client(team.base).login('adi', 'wrong')).status).toBe(401);
    const limited = await new Client(team.base).login('adi', PASSWORDS.adjudicator);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another account from the same address still logs in
    expect((await new Client(team.base).login('max', PASSWORDS.manager)).status).toBe(200);
    now += WINDOW_MS + 1;
    expect((await new Client(team.base).login('adi', PASSWORDS.adjudicator)).status).toBe(200);

    for (let k = 0; k < MAX_FAILURES_PER_ADDRESS; k++) expect((await new Client(team.base).login(`guess${k}`, 'wrong')).status).toBe(401);
    expect((await new Client(team.base).login('max', PASSWORDS.manager)).status).toBe(429);
    now += WINDOW_MS + 1;
    expect((await new Client(team.base).login('max', PASSWORDS.manager)).status).toBe(200);
  }, 60_000);

  test('an account removed, or its password reset, while logged in is logged out at its next call', async () => {
    const file = TeamFile.open(team.projectPath);
    file.addAccount('temp', 'annotator', await hashPassword('temp-password-0123'), now);
    const temp = new Client(team.base);
    expect((await temp.login('temp', 'temp-password-0123')).status).toBe(200);
    expect((await temp.call('app.info', {})).status).toBe(200);
    now += 1;
    file.resetAccount('temp', await hashPassword('new-password-0123'), undefined, now);
    expect((await temp.call('app.info', {})).status).toBe(401);
    expect((await temp.login('temp', 'new-password-0123')).status).toBe(200);
    file.removeAccount('temp');
    expect((await temp.call('app.info', {})).status).toBe(401);
    file.close();
  });

  test("writes logins, failed logins, logouts and a manager's import to the audit log", async () => {
    const max = await loggedIn(team.base, 'manager');
    // refused by its input (no such file), so not logged; a started import is
    expect((await max.call('import.start', { file: `${dir}/missing.tsv`, format: 'tsv' })).status).toBe(200);
    const file = TeamFile.open(team.projectPath);
    const log = file.auditLog();
    file.close();
    const events = log.map((e) => `${e.actor ?? '-'} ${e.event}`);
    expect(events).toContain('ann login');
    expect(events).toContain('ann logout');
    expect(events).toContain('adi login-failed');
    expect(events).toContain('- login-failed');
    expect(events).toContain('adi login-refused');
    expect(events).toContain(`${NAMES.manager} import`);
    expect(log.find((e) => e.event === 'import')!.detail).toContain('missing.tsv');
  });
});
