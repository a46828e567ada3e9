// A fresh AppContext for a desktop window or a browser-mode server.
import { userInfo } from 'node:os';
import { JobRegistry } from '../jobs/job-registry.ts';
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

export function createContext(mode: AppContext['mode'], annotator?: string, dataDir = defaultDataDir()): AppContext {
  return { mode, version: pkg.version, store: null, annotator: annotator ?? loginName(), jobs: new JobRegistry(), dataDir };
}
