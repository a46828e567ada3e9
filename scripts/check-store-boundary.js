// `npm run check:store` (part of `npm run typecheck`): store/ is the only module that holds a
// project's database handle. ProjectStore keeps the handle private, which the compiler checks;
// this script checks the rest: outside src/main/store/, no file under src/ imports
// better-sqlite3 or the store's handle modules (database.ts, connection.ts), calls
// prepare / pragma / exec on a handle, or writes SQL. Exits 1 listing each offending line.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const store = join(src, 'main', 'store') + sep;

const RULES = [
  { what: 'imports better-sqlite3', re: /from\s+['"]better-sqlite3['"]|require\(\s*['"]better-sqlite3['"]\s*\)/ },
  { what: "imports the store's handle (database.ts, connection.ts)", re: /from\s+['"][^'"]*store\/(database|connection)(\.ts)?['"]/ },
  { what: 'prepares a statement', re: /\.prepare\(/ },
  { what: 'sets a pragma', re: /\.pragma\(/ },
  { what: 'runs SQL', re: /\.exec\(\s*[`'"]/ },
  {
    what: 'writes SQL',
    re: /[`'"]\s*(SELECT|INSERT\s+(OR\s+\w+\s+)?INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|TRIGGER)|ALTER\s+TABLE|PRAGMA|BEGIN|COMMIT|ROLLBACK)\b/,
  },
];

function* sourceFiles(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(path);
    else if (/\.(ts|js|svelte)$/.test(entry.name)) yield path;
  }
}

const found = [];
for (const file of sourceFiles(src)) {
  if (file.startsWith(store)) continue;
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '');
      if (/^\s*\*/.test(code)) return; // a doc comment line
      for (const rule of RULES) if (rule.re.test(code)) found.push(`${relative(root, file)}:${i + 1}: ${rule.what}: ${line.trim()}`);
    });
}

if (found.length) {
  console.error(`SQL and the database handle belong in src/main/store/ (its functions take the ProjectStore):\n${found.join('\n')}`);
  process.exit(1);
}
