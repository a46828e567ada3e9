// A fresh AppContext for a desktop window or a browser-mode server.
import { userInfo } from 'node:os';
import { JobRegistry } from '../jobs/job-registry.ts';
import { runJobThreadsInBackground } from '../jobs/thread-priority.ts';
import { defaultDataDir } from '../paths.ts';
import type { AppContext } from './app-context.ts';
import pkg from '../../../package.json' with { type: 'json' };

/** The user's login name: whose edits they are when no annotator is given. */
export function loginName(): string {
  try {
    return userInfo().username || 'annotator';
  } catch {
    return 'annotator';
  }
}

/** A window's or a server's context; from now on this process's job threads run below the thread that answers it (thread-priority.ts). */
export function createContext(mode: AppContext['mode'], annotator?: string, dataDir = defaultDataDir()): AppContext {
  runJobThreadsInBackground();
  return { mode, version: pkg.version, store: null, annotator: annotator ?? loginName(), jobs: new JobRegistry(), dataDir };
}
