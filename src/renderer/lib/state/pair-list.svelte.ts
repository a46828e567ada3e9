// The pair list's data: the filter (statuses, text, misaligned or excluded pairs, one
// annotator's assignment; id or parallelism order), the matching total, and the pairs
// themselves fetched in pages of PAGE_SIZE as the view asks for row ranges. Only pages
// near the view are kept, so a list of a million pairs costs a few hundred rows of memory.
// A generation counter drops answers to requests made under an older filter.
import { SvelteMap } from 'svelte/reactivity';
import type { MekongApi, PairFilter } from '../../../shared/api.ts';
import type { PairSummary } from '../../../shared/domain.ts';
import type { PairStatus, Split } from '../../../shared/domain.ts';
import { errorMessage } from '../api/api-error.ts';

export const PAGE_SIZE = 200;
const KEEP_PAGES = 12;

export class PairListState {
  statuses = $state<PairStatus[]>([]);
  text = $state('');
  /** Only the pairs the parallelism score flags as misaligned. */
  misalignedOnly = $state(false);
  /** Least parallel first (by parallelism score) instead of by id. */
  byParallelism = $state(false);
  /** Only the pairs excluded from training and export. */
  excludedOnly = $state(false);
  /** Only the pairs assigned to this annotator ("My assignment"), or null for every pair. */
  assignedTo = $state<string | null>(null);
  total = $state(0);
  /** True once the current filter's first answer arrived. */
  ready = $state(false);
  error = $state<string | null>(null);
  selectedIndex = $state(-1);

  readonly filter: PairFilter = $derived({
    ...(this.statuses.length ? { status: [...this.statuses] } : {}),
    ...(this.text ? { text: this.text } : {}),
    ...(this.misalignedOnly ? { misaligned: true } : {}),
    ...(this.byParallelism ? { order: 'parallelism' as const } : {}),
    ...(this.excludedOnly ? { excluded: true } : {}),
    ...(this.assignedTo !== null ? { assignedTo: this.assignedTo } : {}),
  });
  readonly selected = $derived(this.selectedIndex >= 0 ? this.row(this.selectedIndex) : undefined);

  private readonly pages = new SvelteMap<number, PairSummary[]>();
  private readonly pending = new Set<number>();
  private generation = 0;
  private lastRange = { first: 0, last: 0 };

  constructor(
    private readonly api: MekongApi,
    /** Called after an edit changed counts (the project header re-reads them). */
    private readonly onEdited: () => void,
  ) {}

  row(index: number): PairSummary | undefined {
    return this.pages.get(Math.floor(index / PAGE_SIZE))?.[index % PAGE_SIZE];
  }

  setStatuses(statuses: PairStatus[]): void {
    this.statuses = statuses;
    this.reload();
  }

  setCuration(o: { misalignedOnly?: boolean; byParallelism?: boolean; excludedOnly?: boolean }): void {
    if (o.misalignedOnly !== undefined) this.misalignedOnly = o.misalignedOnly;
    if (o.byParallelism !== undefined) this.byParallelism = o.byParallelism;
    if (o.excludedOnly !== undefined) this.excludedOnly = o.excludedOnly;
    this.reload();
  }

  setAssignedTo(annotator: string | null): void {
    this.assignedTo = annotator;
    this.reload();
  }

  setText(text: string): void {
    if (text === this.text) return;
    this.text = text;
    this.reload();
  }

  /** Makes sure rows first..last (inclusive) are loaded or on their way. */
  ensure(first: number, last: number): void {
    this.lastRange = { first, last };
    const end = Math.min(last, Math.max(0, this.total - 1));
    for (let page = Math.floor(first / PAGE_SIZE); page <= Math.floor(end / PAGE_SIZE); page++) {
      if (!this.pages.has(page) && !this.pending.has(page)) void this.fetch(page, this.generation, this.neighbour(page));
    }
  }

  /** Forgets everything and starts over (the filter changed). */
  reload(): void {
    this.generation++;
    this.pages.clear();
    this.pending.clear();
    this.ready = false;
    this.selectedIndex = -1;
    void this.fetch(0, this.generation);
  }

  /** Re-reads the pages on screen in place, without a blank flash (after an edit or import). */
  refresh(): void {
    this.generation++;
    this.pending.clear();
    const kept = [...this.pages.keys()];
    if (!kept.length) kept.push(0);
    for (const page of kept) void this.fetch(page, this.generation);
  }

  async update(pair: PairSummary, change: { status?: PairStatus; split?: Split }): Promise<void> {
    try {
      const saved = await this.api.invoke('pairs.update', { id: pair.id, ...change });
      this.replace(saved);
      this.onEdited();
      if (change.status && this.statuses.length) this.refresh();
    } catch (err) {
      this.error = errorMessage(err);
    }
  }

  select(index: number): void {
    this.selectedIndex = this.total ? Math.max(0, Math.min(this.total - 1, index)) : -1;
  }

  private replace(saved: PairSummary): void {
    for (const [page, rows] of this.pages) {
      const at = rows.findIndex((r) => r.id === saved.id);
      if (at >= 0) this.pages.set(page, rows.with(at, { ...rows[at], status: saved.status, split: saved.split, note: saved.note }));
    }
  }

  /**
   * Where a page starts when a full neighbour is held: after the last pair of the page before
   * it or before the first of the page after it (keyset paging, which reads only the page's
   * rows however deep in the list); otherwise from its list position.
   */
  private neighbour(page: number): { afterId: number } | { beforeId: number } | undefined {
    if (this.byParallelism) return undefined;
    const before = this.pages.get(page - 1);
    if (before?.length === PAGE_SIZE) return { afterId: before[PAGE_SIZE - 1].id };
    const after = this.pages.get(page + 1);
    if (after?.length) return { beforeId: after[0].id };
    return undefined;
  }

  private async fetch(page: number, generation: number, from?: { afterId: number } | { beforeId: number }): Promise<void> {
    this.pending.add(page);
    try {
      const res = await this.api.invoke('pairs.list', { filter: this.filter, offset: page * PAGE_SIZE, limit: PAGE_SIZE, ...from });
      if (generation !== this.generation) return;
      this.total = res.total;
      this.ready = true;
      this.error = null;
      this.pages.set(page, res.pairs);
      this.trimPages();
      if (this.selectedIndex >= this.total) this.selectedIndex = this.total - 1;
    } catch (err) {
      if (generation === this.generation) this.error = errorMessage(err);
    } finally {
      if (generation === this.generation) this.pending.delete(page);
    }
  }

  /** Drops pages far from the last requested range once more than KEEP_PAGES are held. */
  private trimPages(): void {
    if (this.pages.size <= KEEP_PAGES) return;
    const centre = (this.lastRange.first + this.lastRange.last) / 2 / PAGE_SIZE;
    const byDistance = [...this.pages.keys()].sort((a, b) => Math.abs(b - centre) - Math.abs(a - centre));
    for (const page of byDistance.slice(0, this.pages.size - KEEP_PAGES)) this.pages.delete(page);
  }
}
