// One import in its own process for the import benchmark: prints {pairs, seconds, cpuSeconds, maxRssMb}
// (cpuSeconds: user + system time of all its threads during the import, so cpuSeconds / seconds
// is the cores it kept busy).
// Usage: import-run.ts PROJECT FILE --csv | import-run.ts PROJECT SRC TGT (pre-tokenized Moses).
import { ProjectStore } from '../../src/main/store/project-store.ts';
import { runImport } from '../../src/main/corpus/import-pipeline.ts';
import type { ImportOptions } from '../../src/shared/api.ts';

const [project, file, third] = process.argv.slice(2);
const options: ImportOptions =
  third === '--csv'
    ? { file, format: 'csv', header: true, srcColumn: 'lao_sent', tgtColumn: 'thai_sent', tokenization: 'segment' }
    : { file, tgtFile: third, format: 'moses', tokenization: 'pretokenized' };
const store = ProjectStore.create(project, { name: 'bench', srcLang: 'lo', tgtLang: 'th' });
const t0 = performance.now();
const cpu0 = process.cpuUsage();
await runImport(store, options);
const seconds = (performance.now() - t0) / 1000;
const pairs = store.info().pairs;
const cpu = process.cpuUsage(cpu0);
store.close();
console.log(JSON.stringify({ pairs, seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
