// A fixed-seed slice of the import fuzz suite (tests/fuzz; `npm run fuzz -- --cases N --seed S`
// runs any number through the CLI): every case, run in this process, must import the pairs its
// file holds (their texts when the case knows them) or be refused with one line naming the
// file, leaving the project's tables as they were and integrity_check ok.
import { expect, test } from 'vitest';
import { fuzz } from '../../fuzz/fuzz.ts';

test('150 fuzz cases from seed 20261125: no finding', async () => {
  const s = await fuzz(150, 20261125, { mode: 'in-process' });
  expect(s.findings).toEqual([]);
  expect(s.ok).toBeGreaterThan(20);
  expect(s.refused).toBeGreaterThan(20);
}, 600_000);
