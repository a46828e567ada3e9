// The project's assignments as the page sees them (assignments.list): every annotator's
// progress and the overlaps two annotators share for a manager or adjudicator, the caller's
// own for an annotator; a manager's assign and unassign actions re-read the report.
import type { MekongApi } from '../../../shared/api.ts';
import type { AssignmentHow, AssignmentProgress, AssignmentsReport, PairRange } from '../../../shared/team-api.ts';
import { errorMessage } from '../api/api-error.ts';

export class AssignmentsState {
  report = $state<AssignmentsReport | null>(null);
  error = $state<string | null>(null);

  constructor(
    private readonly api: MekongApi,
    /** Whose assignment is "mine": the annotator (a team server's account name). */
    private readonly annotator: () => string,
  ) {}

  /** The caller's own assignment, or null when they have none. */
  get mine(): AssignmentProgress | null {
    const me = this.annotator();
    return this.report?.annotators.find((a) => a.annotator === me && a.assigned > 0) ?? null;
  }

  async load(): Promise<void> {
    try {
      this.report = await this.api.invoke('assignments.list', {});
      this.error = null;
    } catch (err) {
      this.error = errorMessage(err);
    }
  }

  /** Assigns pairs; resolves to how many assignments were new, or null when refused (the message is in `error`). */
  async assign(annotators: string[], how: AssignmentHow): Promise<number | null> {
    try {
      const { added, report } = await this.api.invoke('assignments.assign', { annotators, how });
      this.report = report;
      this.error = null;
      return added;
    } catch (err) {
      this.error = errorMessage(err);
      return null;
    }
  }

  /**
   * Takes the pairs of `ranges` (absent: all) off each annotator's assignment, one after the
   * other; resolves to how many assignments were removed, or null when one was refused (the
   * message is in `error`; those before it stay removed, as the report shows).
   */
  async unassign(annotators: string[], ranges?: PairRange[]): Promise<number | null> {
    let removed = 0;
    try {
      for (const annotator of annotators) {
        const answer = await this.api.invoke('assignments.unassign', { annotator, ...(ranges ? { ranges } : {}) });
        this.report = answer.report;
        removed += answer.removed;
      }
      this.error = null;
      return removed;
    } catch (err) {
      this.error = errorMessage(err);
      return null;
    }
  }
}
