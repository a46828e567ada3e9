// `mekong project create`, `mekong info` and `mekong check`: make a project file, show what
// one holds, check it for damage.
import type { Command } from 'commander';
import { languageProblem } from '../../shared/api.ts';
import { UserError } from '../errors.ts';
import { ProjectStore } from '../store/project-store.ts';
import { fullCheck } from '../store/integrity.ts';
import { existingBackup } from '../store/backup-path.ts';

export function register(program: Command): void {
  const project = program.command('project').description('create project files');
  project
    .command('create')
    .description('create a new, empty project file')
    .argument('<file>', 'the project file to create (e.g. corpus.mekong)')
    .requiredOption('--src-lang <code>', 'source language (lo, th, vi, zh, en, id, km, …)')
    .requiredOption('--tgt-lang <code>', 'target language')
    .option('--name <name>', 'display name (default: the file name)')
    .action((file: string, o: { srcLang: string; tgtLang: string; name?: string }) => {
      for (const [flag, code] of [
        ['--src-lang', o.srcLang],
        ['--tgt-lang', o.tgtLang],
      ]) {
        const problem = languageProblem(code);
        if (problem) throw new UserError(`${flag}: ${problem}`);
      }
      ProjectStore.create(file, {
        name: o.name ?? file.replace(/^.*[\\/]/, '').replace(/\.mekong$/, ''),
        srcLang: o.srcLang,
        tgtLang: o.tgtLang,
      }).close();
      console.log(`created ${file} (${o.srcLang} → ${o.tgtLang})`);
    });

  program
    .command('info')
    .description('show a project: languages, pair counts by status, alignments')
    .argument('<file>', 'the project file')
    .option('--json', 'print JSON')
    .action((file: string, o: { json?: boolean }) => {
      const store = ProjectStore.open(file);
      try {
        const info = store.info();
        if (o.json) return console.log(JSON.stringify(info));
        console.log(`${info.name}  ${info.srcLang} → ${info.tgtLang}  ${info.pairs} pairs`);
        console.log(
          `  status: ${Object.entries(info.byStatus)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ')}`,
        );
        for (const a of info.alignments) console.log(`  alignment ${a.id}: ${a.origin} "${a.name}", ${a.links} links`);
      } finally {
        store.close();
      }
    });

  program
    .command('check')
    .description("check a project file for damage: SQLite's full integrity check, its references, every pair's tokens")
    .argument('<file>', 'the project file')
    .action((file: string) => {
      const store = ProjectStore.open(file);
      try {
        const problems = fullCheck(store);
        const backup = existingBackup(file);
        if (problems.length === 0) {
          console.log(`${file}: no damage found`);
          if (backup !== null) console.log(`last good copy (automatic backup): ${backup}`);
          return;
        }
        for (const p of problems) console.log(p);
        throw new UserError(
          `${file}: ${problems.length} problem${problems.length === 1 ? '' : 's'} found (listed above); restore the project from ${backup ?? 'a backup copy'}`,
        );
      } finally {
        store.close();
      }
    });
}
