// Typed contexts shared down the component tree: the app state everywhere, the pair
// list, the workspace (views and the editor) and the assignments inside the project screen,
// the models inside the Models page; a team server's presence everywhere (null elsewhere).
import { createContext } from 'svelte';
import type { AppState } from './app-state.svelte.ts';
import type { AssignmentsState } from './assignments.svelte.ts';
import type { ModelsState } from './models.svelte.ts';
import type { PairListState } from './pair-list.svelte.ts';
import type { PresenceState } from './presence.svelte.ts';
import type { WorkspaceState } from './workspace.svelte.ts';

export const [getAppState, setAppState] = createContext<AppState>();
export const [getPairList, setPairList] = createContext<PairListState>();
export const [getWorkspace, setWorkspace] = createContext<WorkspaceState>();
export const [getModels, setModels] = createContext<ModelsState>();
export const [getAssignments, setAssignments] = createContext<AssignmentsState>();
const [presenceContext, setPresence, hasPresence] = createContext<PresenceState | null>();
export { setPresence };
/** The team server's presence; null in single-user modes and where no app shell set it (a component mounted alone). */
export function getPresence(): PresenceState | null {
  return hasPresence() ? presenceContext() : null;
}
