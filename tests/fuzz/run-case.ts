// Runs one fuzz case against a copy of a project that already holds pairs and gold links,
// through the real import pipeline, and judges the outcome:
//   ok       the import succeeded, added the pairs the case expects (when it knows), and the
//            project passes integrity_check;
//   refused  the import failed with a user error of one line naming the file (file:line:
//            reason or file: reason), and every table is exactly as before, integrity ok;
//   finding  anything else: another error type (TypeError, RangeError…), a message that does
//            not name the file, a changed table, a failed integrity check.
import { createHash } from 'node:crypto';
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ImportOptions } from '../../src/shared/api.ts';
import { runImport } from '../../src/main/corpus/import-pipeline.ts';
import { asUserError } from '../../src/main/errors.ts';
import type { Db } from '../../src/main/store/database.ts';
import { ProjectStore } from '../../src/main/store/project-store.ts';
import type { SegmentPool } from '../../src/main/text/segment-pool.ts';
import type { FuzzCase } from './cases.ts';
import { dbOf } from '../../src/main/store/connection.ts';

export interface Outcome {
  kind: 'ok' | 'refused' | 'finding';
  detail: string;
}

/** A project with three pairs and a gold alignment, closed (no WAL), to copy for each case. */
export async function baseProject(dir: string, pool: SegmentPool): Promise<string> {
  const path = join(dir, 'base.mekong');
  const store = ProjectStore.create(path, { name: 'fuzz', srcLang: 'lo', tgtLang: 'th' });
  const tsv = join(dir, 'base.tsv');
  writeFileSync(tsv, 'ສະບາຍດີ\tสวัสดี\nໂລກ\tโลก\nປະຈຳ ແຂວງ\tประจำ จังหวัด\n');
  const jsonl = join(dir, 'base.jsonl');
  writeFileSync(
    jsonl,
    '{"src":{"text":"ກ ຂ","tokens":[[0,1],[2,3]]},"tgt":{"text":"ก ข","tokens":[[0,1],[2,3]]},"alignments":[{"origin":"gold","source":"anna","links":[[0,0,"sure",null]]}]}\n',
  );
  await runImport(store, { file: tsv, format: 'tsv', tokenization: 'segment' }, { pool });
  await runImport(store, { file: jsonl, format: 'jsonl', tokenization: 'segment' }, { pool });
  store.close();
  return path;
}

/** Every table's rows, hashed: equal digests mean the project's data did not change. */
export function digest(db: Db): string {
  const h = createHash('sha1');
  const tables = db.prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`).all() as {
    name: string;
  }[];
  for (const { name } of tables) {
    const rows = (db.prepare(`SELECT * FROM "${name}"`).raw().all() as unknown[][]).map((r) =>
      JSON.stringify(r, (_k, v) => (v?.type === 'Buffer' ? Buffer.from(v.data).toString('base64') : v)),
    );
    h.update(name).update(rows.sort().join('\n'));
  }
  return h.digest('hex');
}

const EXT: Record<FuzzCase['format'], string> = { tsv: 'tsv', csv: 'csv', moses: 'src', fastalign: 'fa', tmx: 'tmx', jsonl: 'jsonl' };

/** Writes the case's files under `dir` and the import options that read them. */
export function writeCase(c: FuzzCase, dir: string): ImportOptions {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `case-${c.seed}.${EXT[c.format]}`);
  writeFileSync(file, c.files[0]);
  // The cases mix Lao–Thai and English–Vietnamese pairs: the script check is not what they test.
  const options: ImportOptions = {
    file,
    format: c.format,
    tokenization: 'segment',
    anyScript: true,
    ...(c.header ? { header: true } : {}),
  };
  if (c.format === 'moses') {
    options.tgtFile = join(dir, `case-${c.seed}.tgt`);
    writeFileSync(options.tgtFile, c.files[1]);
  }
  if (c.links) {
    options.linksFile = join(dir, `case-${c.seed}.links`);
    options.linksFormat = c.links.format;
    writeFileSync(options.linksFile, c.links.content);
  }
  return options;
}

export async function runCase(c: FuzzCase, base: string, dir: string, pool: SegmentPool): Promise<Outcome> {
  const caseDir = join(dir, `c${c.seed}`);
  const options = writeCase(c, caseDir);
  const project = join(caseDir, 'p.mekong');
  copyFileSync(base, project);
  const store = ProjectStore.open(project);
  const before = digest(dbOf(store));
  const pairsBefore = store.info().pairs;
  let outcome: Outcome;
  try {
    await runImport(store, options, { pool });
    const added = store.info().pairs - pairsBefore;
    outcome =
      c.pairs !== null && added !== c.pairs
        ? { kind: 'finding', detail: `imported ${added} pairs, the file holds ${c.pairs}` }
        : { kind: 'ok', detail: `${added} pairs` };
  } catch (err) {
    const user = asUserError(err);
    const files = [options.file, options.tgtFile, options.linksFile].filter((f): f is string => f !== undefined);
    if (!user)
      outcome = {
        kind: 'finding',
        detail: `${(err as Error)?.name ?? 'error'}: ${String((err as Error)?.stack ?? err)
          .split('\n')
          .slice(0, 3)
          .join(' | ')}`,
      };
    else if (user.message.includes('\n') || !files.some((f) => user.message.startsWith(`${f}:`)))
      outcome = { kind: 'finding', detail: `message does not name the file on one line: ${JSON.stringify(user.message.slice(0, 300))}` };
    else if (digest(dbOf(store)) !== before) outcome = { kind: 'finding', detail: `tables changed by a failed import: ${user.message}` };
    else outcome = { kind: 'refused', detail: user.message.slice(files.find((f) => user.message.startsWith(f))!.length + 1) };
  }
  const integrity = dbOf(store).pragma('integrity_check', { simple: true });
  store.close();
  if (integrity !== 'ok') outcome = { kind: 'finding', detail: `integrity_check: ${String(integrity)}` };
  if (outcome.kind !== 'finding') rmSync(caseDir, { recursive: true, force: true });
  return outcome;
}
