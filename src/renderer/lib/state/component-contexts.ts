// Typed contexts shared down the component tree: the app state everywhere, the pair
// list and the workspace (views and the editor) inside the project screen, the models
// inside the Models page.
import { createContext } from 'svelte';
import type { AppState } from './app-state.svelte.ts';
import type { ModelsState } from './models.svelte.ts';
import type { PairListState } from './pair-list.svelte.ts';
import type { WorkspaceState } from './workspace.svelte.ts';

export const [getAppState, setAppState] = createContext<AppState>();
export const [getPairList, setPairList] = createContext<PairListState>();
export const [getWorkspace, setWorkspace] = createContext<WorkspaceState>();
export const [getModels, setModels] = createContext<ModelsState>();
