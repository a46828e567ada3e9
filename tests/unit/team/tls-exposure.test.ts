// Network exposure: a team server over TLS (node:https, a self-signed certificate made by
// openssl for the test) sets a Secure session cookie and answers only its https origin;
// listening on anything but loopback is refused without --team, and without TLS or a proxy;
// behind a proxy, Host and Origin are the public address's and the client address is the
// proxy's X-Forwarded-For.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { request } from 'node:https';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createContext } from '../../../src/main/api/create-context.ts';
import { exposureError, startServer } from '../../../src/main/server.ts';
import { TeamFile } from '../../../src/main/store/team-file.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { PASSWORDS, teamServer, type TeamServer } from './team-fixture.ts';

const dir = tempDir('mekong-tls-');
const cert = join(dir, 'cert.pem');
const key = join(dir, 'key.pem');
let team: TeamServer;

beforeAll(async () => {
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  team = await teamServer(dir, { tls: { cert: readFileSync(cert), key: readFileSync(key) } });
}, 60_000);
afterAll(() => team?.close());

/** An HTTPS request that trusts the test's certificate only. */
function https(
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: team.server.port,
        path,
        method: 'POST',
        ca: readFileSync(cert),
        headers: { 'content-type': 'application/json', ...headers },
      },
      (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify(body));
  });
}

describe('a team server over TLS', () => {
  test('logs in over https with a Secure cookie, and calls go through', async () => {
    expect(team.server.url).toBe(`https://127.0.0.1:${team.server.port}/`);
    const login = await https('/auth/login', { name: 'max', password: PASSWORDS.manager });
    expect(login.status).toBe(200);
    const cookie = (login.headers['set-cookie'] as string[])[0];
    expect(cookie).toMatch(/; HttpOnly; SameSite=Strict; Secure$/);
    const { csrf } = (JSON.parse(login.text) as { account: { csrf: string } }).account;
    const info = await https(
      '/api/app.info',
      {},
      { cookie: cookie.split(';')[0], 'x-mekong-csrf': csrf, origin: `https://127.0.0.1:${team.server.port}` },
    );
    expect(info.status).toBe(200);
    expect(JSON.parse(info.text)).toMatchObject({ annotator: 'max' });
    const plainOrigin = await https(
      '/api/app.info',
      {},
      { cookie: cookie.split(';')[0], 'x-mekong-csrf': csrf, origin: `http://127.0.0.1:${team.server.port}` },
    );
    expect(plainOrigin.status).toBe(403);
  });

  test('a plain HTTP request to the TLS port gets no answer', async () => {
    await expect(fetch(`http://127.0.0.1:${team.server.port}/auth/session`)).rejects.toThrow();
  });
});

describe('listening beyond loopback', () => {
  test('needs --team, then TLS or a proxy with its public origin', () => {
    expect(exposureError({ host: '127.0.0.1' })).toBeNull();
    expect(exposureError({ host: '::1' })).toBeNull();
    expect(exposureError({ host: '192.168.1.20' })).toMatch(/needs --team/);
    expect(exposureError({ host: '192.168.1.20', team: { projectPath: 'p' } })).toMatch(/--tls-cert and --tls-key, or --behind-proxy/);
    expect(exposureError({ host: '192.168.1.20', team: { projectPath: 'p' }, behindProxy: true })).toMatch(/needs --origin/);
    expect(exposureError({ host: '0.0.0.0', team: { projectPath: 'p' }, tls: { cert: '', key: '' } })).toMatch(/needs --origin/);
    expect(exposureError({ host: '192.168.1.20', team: { projectPath: 'p' }, tls: { cert: '', key: '' } })).toBeNull();
  });

  test('startServer refuses an unsafe address before listening', async () => {
    await expect(startServer(createContext('browser', 'x', dir), { host: '0.0.0.0' })).rejects.toThrow(/needs --team/);
  });

  test("behind a proxy: the public Host and Origin are the ones accepted; the proxy's X-Forwarded-For is the client address", async () => {
    mkdirSync(join(dir, 'proxied'));
    const proxied = await teamServer(join(dir, 'proxied'), { behindProxy: true, origin: 'https://align.example.org' });
    try {
      const login = (host: string, origin: string, forwarded: string) =>
        new Promise<number>((resolve, reject) => {
          const req = httpRequest(
            {
              host: '127.0.0.1',
              port: proxied.server.port,
              path: '/auth/login',
              method: 'POST',
              headers: { host, origin, 'x-forwarded-for': forwarded, 'content-type': 'application/json' },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode!);
            },
          );
          req.on('error', reject);
          req.end(JSON.stringify({ name: 'ann', password: PASSWORDS.annotator }));
        });
      expect(await login(`127.0.0.1:${proxied.server.port}`, 'https://align.example.org', '203.0.113.7')).toBe(403);
      expect(await login('align.example.org', 'https://evil.example', '203.0.113.7')).toBe(403);
      expect(await login('align.example.org', 'https://align.example.org', '198.51.100.1, 203.0.113.7')).toBe(200);
      const file = TeamFile.open(proxied.projectPath);
      expect(file.auditLog().find((e) => e.event === 'login')?.detail).toBe('annotator, from 203.0.113.7');
      file.close();
    } finally {
      await proxied.close();
    }
  });
});
