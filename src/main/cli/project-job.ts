// What the long project commands (import, export) share: options checked against the
// API contract's schema, the project opened, the work run with a progress bar and Ctrl+C
// as cancel, its one-line summary printed, the project closed whatever happens.
import type { z } from 'zod';
import { UserError } from '../errors.ts';
import type { JobContext } from '../jobs/job-context.ts';
import { ProjectStore } from '../store/project-store.ts';
import { interruptSignal, withProgressBar } from './progress-bar.ts';

export function parseOptions<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UserError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
  return parsed.data;
}

export async function runProjectJob(
  projectFile: string,
  label: string,
  work: (store: ProjectStore, run: JobContext) => Promise<string>,
): Promise<void> {
  const store = ProjectStore.open(projectFile);
  try {
    console.log(await withProgressBar(label, (bar) => work(store, bar), interruptSignal()));
  } finally {
    store.close();
  }
}
