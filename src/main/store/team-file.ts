// A team server's accounts and audit log: a sidecar SQLite file `<project>.team` beside the
// project file (better-sqlite3, WAL, a busy timeout so that `mekong user …` can write while
// `mekong serve --team` reads). Why a sidecar and not tables in the project file: password
// hashes are the server's secrets, not the corpus's, so a project file mailed to a colleague
// or attached to a paper carries none; the project's schema and its migrations stay the
// corpus's alone; and accounts outlive a project file replaced by "Save a copy…". The file
// has its own schema version (user_version) and is created by `mekong user add`.
// The SQL lives here because store/ is the one place that writes SQL (check-store-boundary.js);
// src/main/team/ holds what the server does with it.
import Database from 'better-sqlite3';
import { existsSync } from 'node:fs';
import { UserError } from '../errors.ts';
import type { TeamRole as Role } from '../../shared/team-api.ts';

export { TEAM_ROLES as ROLES, type TeamRole as Role } from '../../shared/team-api.ts';

/** The logged-in account a call comes from. */
export interface Caller {
  name: string;
  role: Role;
}

export interface Account {
  name: string;
  role: Role;
  /** The password's scrypt hash with its parameters (team/passwords.ts). */
  hash: string;
  /** When the password was last set (ms since the epoch): sessions begun before it are ended. */
  passwordSetAt: number;
  createdAt: number;
}

export interface AuditEntry {
  id: number;
  at: number;
  /** The account that acted (null for a failed login under an unknown name, or the command line). */
  actor: string | null;
  /** login, login-failed, logout, user-added, user-removed, password-reset, role-changed, import, export, train, align, … */
  event: string;
  /** What it was about, in a few words (the account changed, the channel's file, the client's address). */
  detail: string;
}

const SCHEMA = `
CREATE TABLE IF NOT EXISTS accounts (
  name TEXT PRIMARY KEY,
  role TEXT NOT NULL CHECK (role IN ('annotator', 'adjudicator', 'manager')),
  hash TEXT NOT NULL,
  password_set_at INTEGER NOT NULL,
  created_at INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS audit (
  id INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  actor TEXT,
  event TEXT NOT NULL,
  detail TEXT NOT NULL
);`;

/** The sidecar file of a project: `<project>.team`. */
export function teamFilePath(projectPath: string): string {
  return `${projectPath}.team`;
}

export class TeamFile {
  private readonly db: Database.Database;

  private constructor(readonly path: string) {
    this.db = new Database(path, { nativeBinding: process.env.MEKONG_SQLITE_BINDING || undefined });
    this.db.pragma('journal_mode = WAL');
    this.db.pragma('busy_timeout = 5000');
    const version = this.db.pragma('user_version', { simple: true }) as number;
    if (version > 1) throw new UserError(`${path}: made by a newer Mekong (team file version ${version})`);
    this.db.exec(SCHEMA);
    this.db.pragma('user_version = 1');
  }

  /** The team file of `projectPath`; created when `create` is set, else a one-line error when missing. */
  static open(projectPath: string, options: { create?: boolean } = {}): TeamFile {
    if (!existsSync(projectPath)) throw new UserError(`${projectPath}: no such project file`);
    const path = teamFilePath(projectPath);
    if (!options.create && !existsSync(path)) throw new UserError(`${path}: no team file: add an account first (mekong user add)`);
    return new TeamFile(path);
  }

  account(name: string): Account | null {
    const row = this.db
      .prepare(`SELECT name, role, hash, password_set_at AS passwordSetAt, created_at AS createdAt FROM accounts WHERE name = ?`)
      .get(name) as Account | undefined;
    return row ?? null;
  }

  accounts(): Omit<Account, 'hash'>[] {
    return this.db
      .prepare(`SELECT name, role, password_set_at AS passwordSetAt, created_at AS createdAt FROM accounts ORDER BY name`)
      .all() as Omit<Account, 'hash'>[];
  }

  addAccount(name: string, role: Role, hash: string, now: number): void {
    if (this.account(name)) throw new UserError(`${name}: an account of that name exists (mekong user reset changes its password or role)`);
    this.db
      .prepare(`INSERT INTO accounts (name, role, hash, password_set_at, created_at) VALUES (?, ?, ?, ?, ?)`)
      .run(name, role, hash, now, now);
  }

  /** Sets a new password hash (ending the account's sessions) and, when given, a new role. */
  resetAccount(name: string, hash: string, role: Role | undefined, now: number): void {
    const changed = this.db
      .prepare(`UPDATE accounts SET hash = ?, password_set_at = ?, role = coalesce(?, role) WHERE name = ?`)
      .run(hash, now, role ?? null, name).changes;
    if (!changed) throw new UserError(`${name}: no such account`);
  }

  removeAccount(name: string): void {
    if (!this.db.prepare(`DELETE FROM accounts WHERE name = ?`).run(name).changes) throw new UserError(`${name}: no such account`);
  }

  audit(entry: Omit<AuditEntry, 'id'>): void {
    this.db
      .prepare(`INSERT INTO audit (at, actor, event, detail) VALUES (?, ?, ?, ?)`)
      .run(entry.at, entry.actor, entry.event, entry.detail);
  }

  /** The audit log, oldest first; `limit` keeps the newest entries. */
  auditLog(limit = 1_000_000): AuditEntry[] {
    return this.db
      .prepare(`SELECT * FROM (SELECT id, at, actor, event, detail FROM audit ORDER BY id DESC LIMIT ?) ORDER BY id`)
      .all(limit) as AuditEntry[];
  }

  close(): void {
    this.db.close();
  }
}
