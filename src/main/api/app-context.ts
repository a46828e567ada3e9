// What the API handlers act on: the open project (at most one per window/server), the
// annotator's name, the job registry and where the app keeps its files.
import type { ProjectStore } from '../store/project-store.ts';
import { UserError } from '../errors.ts';
import type { JobRegistry } from '../jobs/job-registry.ts';
import type { Caller } from '../store/team-file.ts';

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
  /** Browser mode: each uploaded file's path on the server → the name the user chose it by. */
  uploads?: Map<string, string>;
  /** A team server's call: the logged-in account and its role (`annotator` is its name); absent in single-user modes. */
  caller?: Caller;
}

/** `text` with the server paths of uploaded files replaced by the names the user knows them by. */
export function withUploadNames(ctx: AppContext, text: string): string {
  let shown = text;
  for (const [path, name] of ctx.uploads ?? []) shown = shown.replaceAll(path, name);
  return shown;
}

/** The open project, or a user error when none is. */
export function openProject(ctx: AppContext): ProjectStore {
  if (!ctx.store) throw new UserError('no project is open');
  return ctx.store;
}
