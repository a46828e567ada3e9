// Test fixture: the 265 Lao–Thai embassy pairs (CC0), from resources/sample when bundled,
// else from ../shared/data; `embassyCsv` is null when neither exists (tests then skip).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'csv-parse/sync';

const root = fileURLToPath(new URL('../../../', import.meta.url));

export const embassyCsv: string | null =
  [`${root}resources/sample/vientiane-thaiembassy-sent.csv`, `${root}../shared/data/thai-lao-embassy/vientiane-thaiembassy-sent.csv`].find(
    (p) => existsSync(p),
  ) ?? null;

/** [lao, thai] raw sentence pairs, in file order ([] without the file). */
export function embassyPairs(): [string, string][] {
  if (!embassyCsv) return [];
  const rows: Record<string, string>[] = parse(readFileSync(embassyCsv, 'utf8'), { columns: true, bom: true });
  return rows.map((r) => [r.lao_sent, r.thai_sent]);
}
