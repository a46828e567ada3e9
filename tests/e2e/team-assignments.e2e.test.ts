// A team server end to end in Chromium, four browser contexts logged in as four accounts of
// one project: the manager shares pairs out with a 20% double-annotation overlap from the
// Agreement page's panel; each of two annotators finds their assignment in the Pairs list
// ("My assignment", on by default), links one pair of the overlap blind (neither sees the
// other's links) and sets it Done, and sees no manager's buttons; the adjudicator compares the
// two on their overlap and writes the adjudicated gold. The header counts each one's assignment
// (an annotator's own: assigned, done, left; everyone's and the pairs awaiting adjudication for
// the adjudicator). The manager takes pairs back from the panel, after confirming how many.
// Every check reads what the store holds.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { AppContext } from '../../src/main/api/app-context.ts';
import { JobRegistry } from '../../src/main/jobs/job-registry.ts';
import { editorPair } from '../../src/main/review/editor.ts';
import { adjudication as adjudicationOf } from '../../src/main/review/adjudication.ts';
import { assignmentsReport } from '../../src/main/review/assign-pairs.ts';
import { sharedPairIds } from '../../src/main/store/assignments.ts';
import { adjudicatedGoldId, goldIdOf } from '../../src/main/store/gold-layer.ts';
import { listAlignments } from '../../src/main/store/alignments.ts';
import { TeamFile } from '../../src/main/store/team-file.ts';
import { hashPassword } from '../../src/main/team/passwords.ts';
import { startServer, type ServerHandle } from '../../src/main/server.ts';
import { sampleProject } from './editor-fixture.ts';

const CHROMIUM = process.env.MEKONG_CHROMIUM ?? '/usr/bin/chromium';
const SCREENSHOTS = join(import.meta.dirname, 'screenshots');
const PASSWORD = 'team-e2e-password-0123';
const ACCOUNTS = { max: 'manager', ann: 'annotator', bob: 'annotator', adi: 'adjudicator' } as const;
type Who = keyof typeof ACCOUNTS;

let dir: string;
let ctx: AppContext;
let server: ServerHandle;
let browser: Browser;
const pages = {} as Record<Who, Page>;
const pageErrors: string[] = [];
/** The first 20 pairs are shared out; the overlap pair both annotators link. */
let first = 0;
let overlapPair = 0;

const store = () => ctx.store!;
const shot = (who: Who, name: string) => pages[who].screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
const tok = (page: Page, side: 'src' | 'tgt', i: number) =>
  page.locator(`[data-testid="line-view"] [data-side="${side}"][data-index="${i}"]`);

async function logIn(who: Who): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await context.newPage();
  page.on('console', (m) => m.type() === 'error' && pageErrors.push(`${who}: ${m.text().slice(0, 300)}`));
  page.on('pageerror', (e) => pageErrors.push(`${who}: ${e.message}`));
  await page.goto(server.url);
  const form = page.getByRole('form', { name: 'Log in' });
  await form.getByLabel('Name').fill(who);
  await form.getByLabel('Password').fill(PASSWORD);
  await form.getByRole('button', { name: 'Log in' }).click();
  await page.getByTestId('project-name').waitFor({ timeout: 60_000 });
  return page;
}

/** Opens pair `id` from the Pairs list (found by "#id") in the editor. */
async function openPair(page: Page, id: number): Promise<void> {
  await page.getByRole('tab', { name: 'Pairs' }).click();
  await page.getByLabel('Search source and target text').fill(`#${id}`);
  await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('1 pair match');
  const row = page.locator(`[data-testid="pair-list"] [role="row"][data-pair-id="${id}"]`);
  await row.click();
  await page.keyboard.press('Enter');
  await page
    .getByTestId('editor-pair')
    .filter({ hasText: `#${id}` })
    .waitFor();
}

async function linkAndFinish(page: Page, links: [number, number][]): Promise<void> {
  for (const [s, t] of links) {
    await tok(page, 'src', s).click();
    await tok(page, 'tgt', t).click();
  }
  await page.locator('[data-testid="save-state"][data-state="saved"]').waitFor();
  await page.getByLabel('Pair status').selectOption('done');
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'mekong-team-e2e-'));
  ctx = { mode: 'browser', version: 'e2e', store: null, annotator: 'nobody', jobs: new JobRegistry(), dataDir: join(dir, 'data') };
  const path = join(dir, 'team.mekong');
  await sampleProject(ctx, path);
  const file = TeamFile.open(path, { create: true });
  const hash = await hashPassword(PASSWORD);
  for (const [name, role] of Object.entries(ACCOUNTS)) file.addAccount(name, role, hash, Date.now());
  file.close();
  server = await startServer(ctx, { port: 0, team: { projectPath: path } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  mkdirSync(SCREENSHOTS, { recursive: true });
  first = store().listPairs({}, { offset: 0 }, 1).pairs[0].id;
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  ctx?.store?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('a team: assignments, blind double annotation, adjudication', () => {
  it('the manager shares 20 pairs between ann and bob, 20% doubly annotated, from the Agreement page', async () => {
    pages.max = await logIn('max');
    await pages.max.getByRole('tab', { name: 'Agreement' }).click();
    await pages.max.getByRole('button', { name: 'Assign pairs…' }).click();
    const panel = pages.max.getByRole('dialog', { name: 'Assign pairs' });
    await panel.getByRole('checkbox', { name: 'ann', exact: true }).check();
    await panel.getByRole('checkbox', { name: 'bob', exact: true }).check();
    await panel.getByRole('textbox', { name: 'Pair ids' }).fill(`${first}-${first + 19}`);
    await panel.getByRole('spinbutton', { name: 'Overlap percent' }).fill('20');
    await shot('max', 'team-assignment-panel');
    await panel.getByRole('button', { name: 'Assign', exact: true }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toBe('24 assignments made.');
    const shared = sharedPairIds(store(), 'ann', 'bob');
    expect(shared).toHaveLength(4);
    expect(assignmentsReport(store()).annotators.map((a) => [a.annotator, a.assigned])).toEqual([
      ['ann', 12],
      ['bob', 12],
    ]);
    overlapPair = shared[0];
    await panel.getByRole('button', { name: 'Close', exact: true }).last().click();
    await expect.poll(() => pages.max.getByTestId('assignment-progress-table').locator('tr[data-annotator]').count()).toBe(2);
  });

  it("each annotator's Pairs list shows their assignment by default; no manager's buttons", async () => {
    for (const who of ['ann', 'bob'] as const) {
      const page = (pages[who] = await logIn(who));
      const filter = page.getByTestId('assignment-filter').first();
      await expect.poll(() => filter.locator('input').isChecked()).toBe(true);
      await expect.poll(() => page.getByTestId('match-count').textContent()).toBe('12 pairs match');
      await expect.poll(() => filter.getByTestId('assignment-progress').textContent()).toMatch(/^0\/12 done/);
      const header = page.getByTestId('header-assignment');
      await expect.poll(() => header.getByTestId('mine-assigned').textContent()).toBe('12');
      expect(await header.getByTestId('mine-left').textContent()).toBe('12');
      expect(await page.getByTestId('header-assignments').count()).toBe(0);
      for (const name of ['Import…', 'Align…', 'Re-segment…', 'Export…', 'Close project'])
        expect(await page.getByRole('button', { name, exact: true }).count(), `${who}: ${name}`).toBe(0);
      for (const tab of ['Agreement', 'Mining']) expect(await page.getByRole('tab', { name: tab }).count(), `${who}: ${tab}`).toBe(0);
      expect(await page.getByRole('button', { name: 'Score parallelism…' }).count()).toBe(0);
    }
    await shot('ann', 'team-annotator-pairs');
    // without the filter, every pair
    await pages.ann.getByTestId('assignment-filter').first().locator('input').uncheck();
    await expect.poll(() => pages.ann.getByTestId('match-count').textContent()).not.toBe('12 pairs match');
    await pages.ann.getByTestId('assignment-filter').first().locator('input').check();
  });

  it('both link a pair of their overlap blind: neither sees the other’s links', async () => {
    await openPair(pages.ann, overlapPair);
    await linkAndFinish(pages.ann, [[0, 0]]);
    await openPair(pages.bob, overlapPair);
    // bob's editor draws no gold link: ann's are not his to see
    expect(await pages.bob.locator('[data-testid="line-view"] path.gold').count()).toBe(0);
    await linkAndFinish(pages.bob, [
      [0, 0],
      [1, 1],
    ]);
    await expect.poll(() => editorPair(store(), 'bob', overlapPair).gold.length).toBe(2);
    await expect.poll(() => editorPair(store(), 'ann', overlapPair).status).toBe('done');
    await expect.poll(() => editorPair(store(), 'bob', overlapPair).status).toBe('done');
    expect(editorPair(store(), 'ann', overlapPair).gold.map((l) => `${l.s}-${l.t}`)).toEqual(['0-0']);
    // what each one's page is served: only their own gold layer
    for (const [who, other] of [
      ['ann', 'bob'],
      ['bob', 'ann'],
    ] as const) {
      const seen = editorPair(store(), who, overlapPair).alignments.map((a) => a.alignmentId);
      expect(seen).not.toContain(goldIdOf(store(), other));
    }
    await openPair(pages.ann, overlapPair);
    expect(await pages.ann.locator('[data-testid="line-view"] path.gold').count()).toBe(1);
    await pages.ann.getByRole('tab', { name: 'Pairs' }).click();
    await pages.ann.getByLabel('Search source and target text').fill('');
    await expect.poll(() => pages.ann.getByTestId('assignment-progress').first().textContent()).toMatch(/^1\/12 done/);
    await expect.poll(() => pages.ann.getByTestId('mine-done').textContent()).toBe('1');
    expect(await pages.ann.getByTestId('mine-left').textContent()).toBe('11');
    await shot('ann', 'team-annotator-pairs-progress');
  });

  it('the adjudicator sees the progress, compares the overlap and writes the adjudicated gold', async () => {
    const page = (pages.adi = await logIn('adi'));
    await page.getByRole('tab', { name: 'Agreement' }).click();
    const progress = page.getByTestId('assignment-progress-table');
    await expect.poll(() => progress.locator('tr[data-annotator="ann"]').textContent()).toMatch(/1 \/ 12/);
    await expect.poll(() => progress.locator('tr[data-overlap="ann+bob"]').textContent()).toMatch(/4\s*1/);
    expect(await page.getByRole('button', { name: 'Assign pairs…' }).count()).toBe(0);
    // the header: Done of assigned per annotator, and the overlap pair both finished, not adjudicated yet
    const header = page.getByTestId('header-assignments');
    await expect.poll(() => header.locator('[data-annotator="ann"]').textContent()).toMatch(/^ann\s*1\/12$/);
    expect(await header.locator('[data-annotator="bob"]').textContent()).toMatch(/^bob\s*1\/12$/);
    await expect.poll(() => header.getByTestId('awaiting-adjudication').textContent()).toBe('1');
    expect(await page.getByTestId('header-assignment').count()).toBe(0);
    expect(await page.getByText("Annotators see each other's gold and rejections").count()).toBe(0);
    await shot('adi', 'team-agreement-progress');
    await progress.locator('tr[data-overlap="ann+bob"]').getByRole('button', { name: 'Compare overlap' }).click();
    await expect.poll(() => page.getByTestId('agreement-overall').textContent()).toMatch(/Pairs\s*1/);
    await page.getByRole('button', { name: 'Adjudicate' }).click();
    const adjudication = page.getByTestId('adjudication');
    // both annotators' links side by side
    await expect.poll(() => adjudication.locator('tr[data-cell]').count()).toBe(2);
    await shot('adi', 'team-adjudication');
    await adjudication.getByRole('button', { name: 'Agreed only' }).click();
    await adjudication.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => adjudication.getByTestId('adjudication-state').textContent()).toBe('Saved');
    await expect.poll(() => header.getByTestId('awaiting-adjudication').textContent()).toBe('0');
    expect(adjudicatedGoldId(store())).not.toBeNull();
    const written = adjudicationOf(store(), overlapPair, goldIdOf(store(), 'ann')!, goldIdOf(store(), 'bob')!).result;
    expect(written.links.map((l) => `${l.s}-${l.t}`)).toEqual(['0-0']);
    // the annotators' own gold is as they left it
    expect(editorPair(store(), 'ann', overlapPair).gold).toHaveLength(1);
    expect(editorPair(store(), 'bob', overlapPair).gold).toHaveLength(2);
    expect(
      listAlignments(store())
        .filter((a) => a.origin === 'gold' && !a.adjudicated)
        .map((a) => a.annotator)
        .sort(),
    ).toEqual(['ann', 'bob']);
  });

  it('the manager sees the same progress; the pages reported no errors', async () => {
    await pages.max.reload();
    await pages.max.getByRole('tab', { name: 'Agreement' }).click();
    await expect
      .poll(() => pages.max.getByTestId('assignment-progress-table').locator('tr[data-annotator="bob"]').textContent())
      .toMatch(/1 \/ 12/);
    await shot('max', 'team-agreement-manager');
    expect(pageErrors).toEqual([]);
  });

  it('the manager takes pairs back: some of one annotator’s, then all of another’s, each after confirming', async () => {
    const page = pages.max;
    await page.getByRole('button', { name: 'Assign pairs…' }).click();
    const panel = page.getByRole('dialog', { name: 'Assign pairs' });
    const assigned = (who: string) => assignmentsReport(store()).annotators.find((a) => a.annotator === who)?.assigned ?? 0;
    // bob's first two pairs of his share, which nobody else has
    await panel.getByRole('checkbox', { name: 'bob', exact: true }).check();
    await panel.getByRole('textbox', { name: 'Pairs to take back' }).fill(`${first + 10}-${first + 11}`);
    await panel.getByRole('button', { name: 'Unassign…' }).click();
    const confirm = page.getByRole('dialog', { name: 'Unassign pairs' });
    await expect.poll(() => confirm.textContent()).toContain(`Take 2 pairs from bob of pairs ${first + 10}-${first + 11}?`);
    await shot('max', 'team-unassign-confirm');
    await confirm.getByRole('button', { name: 'Unassign', exact: true }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toBe('2 assignments removed.');
    expect(assigned('bob')).toBe(10);
    // ann's whole assignment: asked first, and Cancel keeps it
    await panel.getByRole('checkbox', { name: 'bob', exact: true }).uncheck();
    await panel.getByRole('checkbox', { name: 'ann', exact: true }).check();
    await panel.getByRole('textbox', { name: 'Pairs to take back' }).fill('');
    await panel.getByRole('button', { name: 'Unassign…' }).click();
    await expect.poll(() => confirm.textContent()).toContain('Take 12 pairs from ann?');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(assigned('ann')).toBe(12);
    await panel.getByRole('button', { name: 'Unassign…' }).click();
    await confirm.getByRole('button', { name: 'Unassign', exact: true }).click();
    await expect.poll(() => panel.getByRole('status').textContent()).toBe('12 assignments removed.');
    expect(assigned('ann')).toBe(0);
    // nothing left of ann's to take: said so, nothing asked
    await panel.getByRole('button', { name: 'Unassign…' }).click();
    await expect.poll(() => panel.getByRole('alert').first().textContent()).toContain('ann: no assigned pair to take back');
    await panel.getByRole('button', { name: 'Close', exact: true }).last().click();
    // the header and the progress table follow; bob's own header too
    await expect.poll(() => page.getByTestId('header-assignments').locator('[data-annotator]').count()).toBe(1);
    await expect.poll(() => page.getByTestId('assignment-progress-table').locator('tr[data-annotator]').count()).toBe(1);
    await pages.bob.reload();
    await expect.poll(() => pages.bob.getByTestId('mine-assigned').textContent()).toBe('10');
    expect(pageErrors).toEqual([]);
  });
});
