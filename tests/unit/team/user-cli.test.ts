// `mekong user add|list|remove|reset|audit` on a real project's team file, run through the
// CLI's own entry (runCommandLine, as bin/mekong.js runs it): a one-time password printed once that logs in (its hash, not it, is
// stored), a role change written to the audit log, clear one-line errors for bad input, and
// `mekong serve` refusing to listen beyond loopback without --team.
import { readFileSync } from 'node:fs';
import { afterEach, expect, test, vi } from 'vitest';
import { runCommandLine } from '../../../src/main/cli/commands.ts';
import { teamFilePath, TeamFile } from '../../../src/main/store/team-file.ts';
import { verifyPassword } from '../../../src/main/team/passwords.ts';
import { project } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-user-');

afterEach(() => vi.restoreAllMocks());

/** Runs `mekong …args`; what it printed on stdout (console.log) and as its error line. */
async function mekong(...args: string[]) {
  let out = '';
  let err = '';
  vi.spyOn(console, 'log').mockImplementation((line: string) => void (out += `${line}\n`));
  const code = (await runCommandLine(['node', 'mekong', ...args], (line) => (err += line))) ?? 0;
  vi.restoreAllMocks();
  return { code, out, err };
}

test('add prints a one-time password that verifies; list, reset --role, remove and audit', async () => {
  const { store } = project(dir, [['a', 'x']]);
  const path = store.path;
  store.close();
  const added = await mekong('user', 'add', path, 'Somsak', '--role', 'annotator');
  expect(added.code, added.err).toBe(0);
  const password = /shown only now: (\S+)/.exec(added.out)![1];
  expect(password).toMatch(/^[\w-]{20}$/);
  const file = TeamFile.open(path);
  expect(await verifyPassword(password, file.account('Somsak')!.hash)).toBe(true);
  file.close();
  expect(readFileSync(teamFilePath(path)).includes(Buffer.from(password))).toBe(false);

  expect((await mekong('user', 'list', path)).out).toMatch(/^Somsak\tannotator\tpassword set \d{4}-/);
  const reset = await mekong('user', 'reset', path, 'Somsak', '--role', 'adjudicator');
  expect(reset.code, reset.err).toBe(0);
  const second = /shown only now: (\S+)/.exec(reset.out)![1];
  expect(second).not.toBe(password);
  expect((await mekong('user', 'list', path)).out).toMatch(/^Somsak\tadjudicator\t/);

  const again = await mekong('user', 'add', path, 'Somsak', '--role', 'manager');
  expect(again.code).toBe(1);
  expect(again.err).toBe('mekong: Somsak: an account of that name exists (mekong user reset changes its password or role)\n');
  const badRole = await mekong('user', 'add', path, 'Lin', '--role', 'admin');
  expect(badRole.code).toBe(1);
  // commander writes the usage error itself; no account is made
  expect((await mekong('user', 'list', path)).out).not.toMatch(/^Lin/m);

  expect((await mekong('user', 'remove', path, 'Somsak')).code).toBe(0);
  expect((await mekong('user', 'remove', path, 'Somsak')).err).toBe('mekong: Somsak: no such account\n');
  const audit = (await mekong('user', 'audit', path)).out
    .split('\n')
    .filter(Boolean)
    .map((l) => l.split('\t').slice(2).join(' '));
  expect(audit).toEqual([
    'user-added Somsak as annotator',
    'password-reset Somsak',
    'role-changed Somsak: annotator → adjudicator',
    'user-removed Somsak',
  ]);
}, 60_000);

test('one-line errors: a missing project, a project without a team file', async () => {
  expect((await mekong('user', 'list', `${dir}/none.mekong`)).err).toBe(`mekong: ${dir}/none.mekong: no such project file\n`);
  const { store } = project(dir, [['a', 'x']]);
  store.close();
  expect((await mekong('user', 'audit', store.path)).err).toBe(
    `mekong: ${store.path}.team: no team file: add an account first (mekong user add)\n`,
  );
});

test('serve refuses an address beyond loopback without --team, and --team without TLS or a proxy', async () => {
  const { store } = project(dir, [['a', 'x']]);
  store.close();
  const open = await mekong('serve', '--project', store.path, '--host', '0.0.0.0');
  expect(open.code).toBe(1);
  expect(open.err).toMatch(/^mekong: listening on 0\.0\.0\.0 \(not this machine alone\) needs --team/);
  const plain = await mekong('serve', '--team', '--project', store.path, '--host', '10.1.2.3');
  expect(plain.err).toMatch(/^mekong: listening on 10\.1\.2\.3 needs --tls-cert and --tls-key, or --behind-proxy/);
  expect((await mekong('serve', '--team', '--project', store.path, '--tls-cert', 'c.pem')).err).toBe(
    'mekong: --tls-cert and --tls-key go together\n',
  );
  expect((await mekong('serve', '--team', '--sample')).err).toBe('mekong: --team needs --project: the project whose accounts log in\n');
}, 60_000);
