// The Mining view's state: the project's mining runs, the chosen run's proposals one page at
// a time (best score first, or in source-file order; all, or one decision), the row the
// keyboard is on, and the linguist's actions: accept / reject / reset a proposal (the cursor
// then moves on), accept every pending one from a score up, add the accepted ones to the
// corpus, delete a run. Counts come back from the server with each action.
import type { MekongApi } from '../../../shared/api.ts';
import type { MineDecision, MineProposal, MineRunInfo } from '../../../shared/mining-api.ts';
import { errorMessage } from '../api/api-error.ts';

export const PAGE = 100;

export class MiningState {
  runs = $state<MineRunInfo[]>([]);
  runId = $state<number | null>(null);
  decision = $state<MineDecision | 'all'>('pending');
  order = $state<'score' | 'source'>('score');
  offset = $state(0);
  total = $state(0);
  proposals = $state<MineProposal[]>([]);
  cursor = $state(0);
  error = $state<string | null>(null);
  /** The last "added to the corpus" outcome, for the view to say. */
  added = $state<string | null>(null);
  readonly run = $derived(this.runs.find((r) => r.id === this.runId) ?? null);
  readonly reviewed = $derived(this.run ? this.run.counts.accepted + this.run.counts.rejected : 0);
  readonly proposed = $derived(this.run ? this.reviewed + this.run.counts.pending : 0);

  constructor(private readonly api: MekongApi) {}

  private async guard(work: () => Promise<void>): Promise<void> {
    try {
      this.error = null;
      await work();
    } catch (err) {
      this.error = errorMessage(err);
    }
  }

  /** Reads the runs; keeps the chosen one if it still exists, else takes the newest. */
  load(preferNewest = false): Promise<void> {
    return this.guard(async () => {
      this.runs = await this.api.invoke('mine.runs', {});
      if (preferNewest || !this.runs.some((r) => r.id === this.runId)) this.runId = this.runs[0]?.id ?? null;
      await this.loadPage();
    });
  }

  private async loadPage(): Promise<void> {
    if (this.runId === null) {
      this.proposals = [];
      this.total = 0;
      return;
    }
    const page = await this.api.invoke('mine.proposals', {
      runId: this.runId,
      ...(this.decision === 'all' ? {} : { decision: this.decision }),
      order: this.order,
      offset: this.offset,
      limit: PAGE,
    });
    this.proposals = page.proposals;
    this.total = page.total;
    this.cursor = Math.min(this.cursor, Math.max(0, page.proposals.length - 1));
  }

  /** Shows another run, decision filter, order or page. */
  show(change: { runId?: number; decision?: MineDecision | 'all'; order?: 'score' | 'source'; offset?: number }): Promise<void> {
    if (change.runId !== undefined) this.runId = change.runId;
    if (change.decision !== undefined) this.decision = change.decision;
    if (change.order !== undefined) this.order = change.order;
    this.offset = change.offset ?? 0;
    this.cursor = 0;
    this.added = null;
    return this.guard(() => this.loadPage());
  }

  private replaceRun(run: MineRunInfo): void {
    this.runs = this.runs.map((r) => (r.id === run.id ? run : r));
  }

  /**
   * Sets the decision of the proposal at `index` and moves the cursor to the next one at once
   * (keys pressed in a row act on successive rows); the server's answer brings the run's
   * counts, a failure reloads the page. The row stays on the page until it is reloaded, even
   * when the filter no longer matches it, so the linguist sees what was done.
   */
  decide(index: number, decision: MineDecision): Promise<void> {
    const p = this.proposals[index];
    if (!p || this.runId === null || p.pairId !== null) return Promise.resolve();
    const runId = this.runId;
    this.proposals[index] = { ...p, decision };
    this.cursor = Math.min(index + 1, this.proposals.length - 1);
    return this.guard(async () => {
      try {
        this.replaceRun(await this.api.invoke('mine.decide', { runId, ids: [p.id], decision }));
      } catch (err) {
        await this.loadPage();
        throw err;
      }
    });
  }

  /** Accepts every pending proposal of the run scoring at least `minScore`. */
  acceptFrom(minScore: number): Promise<void> {
    if (this.runId === null) return Promise.resolve();
    return this.guard(async () => {
      this.replaceRun(await this.api.invoke('mine.decide', { runId: this.runId!, minScore, decision: 'accepted' }));
      await this.loadPage();
    });
  }

  /** Adds the accepted proposals not yet in the corpus; `onAdded` refreshes the project. */
  addAccepted(onAdded: () => void): Promise<void> {
    if (this.runId === null) return Promise.resolve();
    return this.guard(async () => {
      const r = await this.api.invoke('mine.addAccepted', { runId: this.runId! });
      this.replaceRun(r.run);
      this.added =
        r.added === 0
          ? 'Nothing new to add.'
          : `Added ${r.added} ${r.added === 1 ? 'pair' : 'pairs'} to the corpus (import ${r.importId}).`;
      if (r.added > 0) onAdded();
      await this.loadPage();
    });
  }

  deleteRun(): Promise<void> {
    if (this.runId === null) return Promise.resolve();
    return this.guard(async () => {
      this.runs = await this.api.invoke('mine.deleteRun', { runId: this.runId! });
      this.runId = this.runs[0]?.id ?? null;
      this.offset = 0;
      await this.loadPage();
    });
  }

  move(by: number): void {
    this.cursor = Math.max(0, Math.min(this.proposals.length - 1, this.cursor + by));
  }
}
