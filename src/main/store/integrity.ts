// Finding damage in a project file before it does harm. Opening runs a cheap check: SQLite's
// quick_check on files up to QUICK_CHECK_BYTES (it reads every page: about 0.1 s for 64 MB
// here), and on larger ones a read of the schema and of the first row of every table, so that
// opening a million-pair project stays fast. `mekong check` runs the full check: SQLite's
// integrity_check and foreign_key_check, and every pair's token offsets against its text.
// A damaged file is named in one line that says where and what to do (errors.ts damageAdvice),
// naming the project's automatic backup (backup-path.ts) when there is one.
import { statSync } from 'node:fs';
import { DamagedProjectError } from '../errors.ts';
import { existingBackup } from './backup-path.ts';
import { decodeTokens } from '../text/offsets.ts';
import type { Db } from './database.ts';
import { dbOf, type Project } from './connection.ts';
import { offsetsOf } from './pairs.ts';

const QUICK_CHECK_BYTES = 64 * 2 ** 20;

function tables(db: Db): string[] {
  return db
    .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
    .pluck()
    .all() as string[];
}

/** One line for a check's message, naming the table of the b-tree it points at ("Tree 12"). */
function describe(db: Db, message: string): string {
  const root = /Tree (\d+)/.exec(message)?.[1];
  let name: string | undefined;
  try {
    if (root !== undefined)
      name = db.prepare('SELECT name FROM sqlite_schema WHERE rootpage = ?').pluck().get(Number(root)) as string | undefined;
  } catch {
    // the schema itself is unreadable: the message alone
  }
  const line = message
    .replace(/\*\*\* in database main \*\*\*\s*/g, '')
    .replace(/\s+/g, ' ')
    .trim();
  return name ? `table ${name}: ${line}` : line;
}

/** The cheap check opening runs; throws DamagedProjectError naming the file and the first problem. */
export function quickCheck(db: Db, path: string): void {
  try {
    if (statSync(path).size <= QUICK_CHECK_BYTES) {
      const problems = db.pragma('quick_check(1)', { simple: false }) as { quick_check: string }[];
      if (problems[0]?.quick_check !== 'ok')
        throw new DamagedProjectError(
          `${path}: ${describe(db, problems[0]?.quick_check ?? 'quick_check gave no answer')}`,
          existingBackup(path),
        );
      return;
    }
    for (const table of tables(db)) db.prepare(`SELECT * FROM "${table}" LIMIT 1`).all();
  } catch (err) {
    if (err instanceof DamagedProjectError) throw err;
    const code = String((err as { code?: unknown }).code ?? '');
    if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB')
      throw new DamagedProjectError(`${path}: ${describe(db, (err as Error).message)}`, existingBackup(path));
    throw err;
  }
}

/** Every problem the full check finds, one line each (empty when the file is sound). */
export function fullCheck(project: Project): string[] {
  const db = dbOf(project);
  const problems: string[] = [];
  try {
    for (const row of db.pragma('integrity_check(100)') as { integrity_check: string }[]) {
      if (row.integrity_check !== 'ok') problems.push(describe(db, row.integrity_check));
    }
    for (const row of db.pragma('foreign_key_check') as { table: string; rowid: number; parent: string }[]) {
      problems.push(`table ${row.table}, row ${row.rowid}: refers to a missing row of ${row.parent}`);
    }
    const pairs = db.prepare('SELECT id, src_text, tgt_text, src_tokens, tgt_tokens FROM pairs').iterate() as Iterable<{
      id: number;
      src_text: string;
      tgt_text: string;
      src_tokens: Buffer;
      tgt_tokens: Buffer;
    }>;
    for (const p of pairs) {
      for (const [side, text, blob] of [
        ['source', p.src_text, p.src_tokens],
        ['target', p.tgt_text, p.tgt_tokens],
      ] as const) {
        try {
          decodeTokens(text, offsetsOf(blob));
        } catch (err) {
          problems.push(`pair ${p.id}, ${side} side: ${(err as Error).message}`);
        }
      }
    }
  } catch (err) {
    problems.push(`the check stopped: ${(err as Error).message}`);
  }
  return problems;
}
