// What the API handlers act on: the open project (at most one per window/server), the
// annotator's name, the job registry and where the app keeps its files.
import type { ProjectStore } from '../store/project-store.ts';
import { UserError } from '../errors.ts';
import type { JobRegistry } from '../jobs/job-registry.ts';

/** The desktop app's native file dialogs (absent in browser mode); null when cancelled. */
export interface NativeDialogs {
  openFile(purpose: 'corpus' | 'links' | 'project'): Promise<string | null>;
  saveFile(purpose: 'export' | 'project', defaultName?: string): Promise<string | null>;
}

export interface AppContext {
  mode: 'electron' | 'browser';
  version: string;
  store: ProjectStore | null;
  annotator: string;
  jobs: JobRegistry;
  /** Folder for app-owned files: the sample project lives here. */
  dataDir: string;
  dialogs?: NativeDialogs;
  /** Browser mode: where the server keeps exports for the browser to download (export-downloads.ts). */
  downloadDir?: string;
}

/** The open project, or a user error when none is. */
export function openProject(ctx: AppContext): ProjectStore {
  if (!ctx.store) throw new UserError('no project is open');
  return ctx.store;
}
