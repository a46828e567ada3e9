// Test helper: a project file as an older Mekong left it — the schema of its first `version`
// migrations, the meta rows of an en→vi project and one finished import (id 1, of `pairs`
// pairs from `file`) — left open inside a transaction so the test adds its own rows, then
// commits and closes. For the tests of migrations and of the backup made before one.
import Database from 'better-sqlite3';
import { MIGRATIONS } from '../../../src/main/store/migrations.ts';

export function oldSchemaProject(path: string, version: number, file: string, pairs: number): Database.Database {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.exec('BEGIN');
  for (const m of MIGRATIONS.slice(0, version)) db.exec(m);
  db.pragma(`user_version = ${version}`);
  const put = db.prepare('INSERT INTO meta (key, value) VALUES (?, ?)');
  for (const [k, v] of [
    ['name', 'old'],
    ['src_lang', 'en'],
    ['tgt_lang', 'vi'],
    ['created_at', '2026-01-01T00:00:00Z'],
  ])
    put.run(k, v);
  const format = file.slice(file.lastIndexOf('.') + 1);
  db.prepare(`INSERT INTO imports (id, file, format, state, pairs, started_at) VALUES (1, ?, ?, 'done', ?, 'now')`).run(
    file,
    format,
    pairs,
  );
  return db;
}
