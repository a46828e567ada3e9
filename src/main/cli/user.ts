// `mekong user add|list|remove|reset|audit P …`: a team server's accounts, kept in the project's
// team file (`P.team`, store/team-file.ts). add and reset print a one-time password once (only
// its hash is kept); the account's holder logs in with it. Changes take effect on a running
// `mekong serve --team` at the account's next call, and are written to the audit log.
// `mekong user assign|unassign|assignments P …`: which pairs each annotator is to work on
// (review/assign-pairs.ts), kept in the project file.
import { InvalidArgumentError, type Command } from 'commander';
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import type { AssignmentHow, PairRange } from '../../shared/team-api.ts';
import { UserError } from '../errors.ts';
import { assignmentsReport, assignPairs, parseRanges, unassignPairs } from '../review/assign-pairs.ts';
import { newestModelAlignment } from '../store/alignments.ts';
import { ProjectStore } from '../store/project-store.ts';
import { ROLES, TeamFile, teamFilePath, type Role } from '../store/team-file.ts';
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

function withProject<T>(project: string, work: (store: ProjectStore) => T): T {
  const store = ProjectStore.open(project);
  try {
    return work(store);
  } finally {
    store.close();
  }
}

/** Writes an assignment change to the audit log of a project served to a team. */
function auditAssignment(project: string, detail: string): void {
  if (existsSync(teamFilePath(project)))
    withTeamFile(project, false, (file) => file.audit({ at: Date.now(), actor: operator(), event: 'assignment', detail }));
}

const rangesOption = (v: string): PairRange[] => {
  try {
    return parseRanges(v);
  } catch (e) {
    throw new InvalidArgumentError((e as Error).message);
  }
};

const countOption = (v: string): number => {
  if (!/^[1-9]\d*$/.test(v)) throw new InvalidArgumentError(`expected a positive whole number, got "${v}"`);
  return Number(v);
};

const fractionOption = (v: string): number => {
  const x = Number(v);
  if (!/^\s*\d*\.?\d+\s*$/.test(v) || !(x >= 0 && x <= 1))
    throw new InvalidArgumentError(`expected a fraction from 0 to 1 (e.g. 0.2), got "${v}"`);
  return x;
};

interface AssignOptions {
  range?: PairRange[];
  queue?: number;
  model?: number;
  share?: boolean;
  overlap?: number;
}

/** What `mekong user assign`'s options ask for; a one-line error for a mix that means nothing. */
function assignmentOf(store: ProjectStore, o: AssignOptions): AssignmentHow {
  if (o.share) {
    if (o.queue !== undefined) throw new UserError('--share deals pairs by id: give --range or nothing, not --queue');
    return { kind: 'share', overlap: o.overlap ?? 0, ...(o.range ? { ranges: o.range } : {}) };
  }
  if (o.overlap !== undefined) throw new UserError('--overlap goes with --share (pairs dealt among the annotators)');
  if (o.queue !== undefined) {
    if (o.range) throw new UserError('give --range or --queue, not both');
    const alignmentId = o.model ?? newestModelAlignment(store);
    if (alignmentId === null) throw new UserError('--queue orders pairs by a model alignment: align the project first, or give --model');
    return { kind: 'queue', alignmentId, count: o.queue };
  }
  if (o.range) return { kind: 'ranges', ranges: o.range };
  throw new UserError('say which pairs: --range 1-500, --queue 200, or --share --overlap 0.2');
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
    .command('assign <project> <names...>')
    .description(
      'give annotators pairs: --range (pair ids, to each name), --queue N (the next N unassigned pairs in the review queue order, to each in turn), or --share (the pairs, all or --range, dealt among the names; --overlap: the fraction also given to a second annotator; replaces what those pairs were assigned)',
    )
    .option('--range <ranges>', 'pair ids, e.g. 1-500 or 1-500,900-950', rangesOption)
    .option('--queue <n>', 'the next n pairs nobody is assigned, most unsure first', countOption)
    .option('--model <id>', '--queue: the model alignment ordering the queue (default: the newest)', countOption)
    .option('--share', 'deal the pairs among the names in contiguous shares')
    .option('--overlap <fraction>', '--share: the fraction of the pairs doubly annotated, e.g. 0.2', fractionOption)
    .action((project: string, rawNames: string[], o: AssignOptions) => {
      const names = rawNames.map(parseName);
      const { added, lines } = withProject(project, (store) => {
        const how = assignmentOf(store, o);
        const added = assignPairs(store, names, how);
        const report = assignmentsReport(store);
        return {
          added,
          lines: report.annotators
            .filter((a) => names.includes(a.annotator))
            .map((a) => `${a.annotator}\t${a.assigned} pairs\t${a.shared} shared\t${a.ranges}`),
        };
      });
      auditAssignment(project, `${names.join(', ')}: ${added} assigned`);
      console.log(`${added} assignment${added === 1 ? '' : 's'} made.`);
      for (const l of lines) console.log(l);
    });
  user
    .command('unassign <project> <name>')
    .description("take pairs (--range; without it, all) off an annotator's assignment")
    .option('--range <ranges>', 'pair ids, e.g. 1-500', rangesOption)
    .action((project: string, rawName: string, o: { range?: PairRange[] }) => {
      const name = parseName(rawName);
      const removed = withProject(project, (store) => unassignPairs(store, name, o.range));
      auditAssignment(project, `${name}: ${removed} unassigned`);
      console.log(`${removed} pair${removed === 1 ? '' : 's'} taken off ${name}'s assignment.`);
    });
  user
    .command('assignments <project>')
    .description("each annotator's assignment and progress, and the pairs two annotators share")
    .action((project: string) =>
      withProject(project, (store) => {
        const r = assignmentsReport(store);
        console.log(`${r.pairs} pairs, ${r.unassigned} unassigned`);
        for (const a of r.annotators)
          console.log(
            `${a.annotator}\t${a.done}/${a.assigned} done\t${a.inReview} in review\t${a.linked} linked\t${a.shared} shared\t${a.ranges}`,
          );
        for (const x of r.overlaps) console.log(`${x.left} + ${x.right}\t${x.pairs} pairs shared\t${x.bothLinked} linked by both`);
      }),
    );
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
