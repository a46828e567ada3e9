// `npm run bench -- NAME [args…]`: runs tests/bench/NAME.bench.ts, whose default export
// takes the remaining arguments. Benchmarks read ../shared/data when it exists.
import { readdirSync } from 'node:fs';

const [name, ...args] = process.argv.slice(2);
const available = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.bench.ts'))
  .map((f) => f.replace(/\.bench\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [args…]`);
  process.exit(1);
}
const mod = (await import(`./${name}.bench.ts`)) as { default: (args: string[]) => Promise<void> };
await mod.default(args);
