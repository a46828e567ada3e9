// `mekong user add|list|remove|reset|audit P …`: a team server's accounts, kept in the project's
// team file (`P.team`, store/team-file.ts). add and reset print a one-time password once (only
// its hash is kept); the account's holder logs in with it. Changes take effect on a running
// `mekong serve --team` at the account's next call, and are written to the audit log.
import { InvalidArgumentError, type Command } from 'commander';
import { userInfo } from 'node:os';
import { ROLES, TeamFile, type Role } from '../store/team-file.ts';
import { hashPassword, newPassword } from '../team/passwords.ts';

function parseRole(v: string): Role {
  if (!(ROLES as readonly string[]).includes(v)) throw new InvalidArgumentError(`expected ${ROLES.join(', ')}, got "${v}"`);
  return v as Role;
}

/** An account name: what edits are recorded under, so kept plain. */
function parseName(v: string): string {
  const name = v.trim().normalize('NFC');
  if (!/^[\p{L}\p{N}][\p{L}\p{N}._ -]{0,63}$/u.test(name))
    throw new InvalidArgumentError('expected 1 to 64 letters, digits, spaces, ".", "_" or "-", starting with a letter or digit');
  return name;
}

/** Who ran the command, for the audit log. */
function operator(): string {
  try {
    return `command line (${userInfo().username})`;
  } catch {
    return 'command line';
  }
}

function withTeamFile<T>(project: string, create: boolean, work: (file: TeamFile) => T): T {
  const file = TeamFile.open(project, { create });
  try {
    return work(file);
  } finally {
    file.close();
  }
}

const when = (ms: number) => new Date(ms).toISOString().replace('T', ' ').slice(0, 19);

export function register(program: Command): void {
  const user = program.command('user').description("a team server's accounts (mekong serve --team): add, list, remove, reset, audit");
  user
    .command('add <project> <name>')
    .description('add an account; prints its one-time password once')
    .requiredOption('--role <role>', `${ROLES.join(' | ')}`, parseRole)
    .action(async (project: string, rawName: string, o: { role: Role }) => {
      const name = parseName(rawName);
      const password = newPassword();
      const hash = await hashPassword(password);
      withTeamFile(project, true, (file) => {
        file.addAccount(name, o.role, hash, Date.now());
        file.audit({ at: Date.now(), actor: operator(), event: 'user-added', detail: `${name} as ${o.role}` });
      });
      console.log(`${name} (${o.role}) added. One-time password, shown only now: ${password}`);
    });
  user
    .command('list <project>')
    .description('list the accounts and their roles')
    .action((project: string) =>
      withTeamFile(project, false, (file) => {
        for (const a of file.accounts()) console.log(`${a.name}\t${a.role}\tpassword set ${when(a.passwordSetAt)}`);
      }),
    );
  user
    .command('remove <project> <name>')
    .description('remove an account (its sessions end; its gold stays in the project)')
    .action((project: string, rawName: string) => {
      const name = parseName(rawName);
      withTeamFile(project, false, (file) => {
        file.removeAccount(name);
        file.audit({ at: Date.now(), actor: operator(), event: 'user-removed', detail: name });
      });
      console.log(`${name} removed.`);
    });
  user
    .command('reset <project> <name>')
    .description('give an account a new one-time password (its sessions end), and with --role a new role')
    .option('--role <role>', `${ROLES.join(' | ')}`, parseRole)
    .action(async (project: string, rawName: string, o: { role?: Role }) => {
      const name = parseName(rawName);
      const password = newPassword();
      const hash = await hashPassword(password);
      withTeamFile(project, false, (file) => {
        const before = file.account(name)?.role;
        file.resetAccount(name, hash, o.role, Date.now());
        file.audit({ at: Date.now(), actor: operator(), event: 'password-reset', detail: name });
        if (o.role && before && o.role !== before)
          file.audit({ at: Date.now(), actor: operator(), event: 'role-changed', detail: `${name}: ${before} → ${o.role}` });
      });
      console.log(`${name}${o.role ? ` (${o.role})` : ''}: new one-time password, shown only now: ${password}`);
    });
  user
    .command('audit <project>')
    .description('print the audit log: logins, failed logins, account and role changes, imports, exports, alignment and training runs')
    .option('--last <n>', 'only the newest n entries', (v) => {
      if (!/^[1-9]\d*$/.test(v)) throw new InvalidArgumentError(`expected a positive whole number, got "${v}"`);
      return Number(v);
    })
    .action((project: string, o: { last?: number }) =>
      withTeamFile(project, false, (file) => {
        for (const e of file.auditLog(o.last)) console.log(`${when(e.at)}\t${e.actor ?? '-'}\t${e.event}\t${e.detail}`);
      }),
    );
}
