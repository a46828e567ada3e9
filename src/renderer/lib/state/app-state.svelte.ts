// The app-wide state: which transport we talk through, the annotator's name and the open
// project (with its counts by status). Screens call its actions; a failed action leaves
// its message in `error` for the screen to show. Any call refused because the project file
// was deleted, moved or replaced while open (error kind 'gone') sets `fileGone`, and the
// project screen then offers to save a copy. On a team server it knows the account's role and
// the channels that role may call (app.info, read from the server's one role table): `may`
// is what every screen asks before offering an action.
import type { AppInfo, Channel, ChannelInput, MekongApi, ProjectInfo } from '../../../shared/api.ts';
import type { TeamRole } from '../../../shared/team-api.ts';
import { ApiError, errorMessage } from '../api/api-error.ts';

export type Uploader = (file: File) => Promise<string>;
/** Browser mode: the address of one file of an export written for download. */
export type DownloadUrl = (download: string, name: string) => string;

export class AppState {
  info = $state<AppInfo | null>(null);
  project = $state<ProjectInfo | null>(null);
  annotator = $state('');
  busy = $state(false);
  error = $state<string | null>(null);
  /** The siamese head folder picked on the Models page: the Mine and Score dialogs' head fields start from it. */
  siameseHead = $state('');
  /** A call was refused because the open project's file went away (project.info says so too). */
  private goneNoticed = $state(false);
  readonly api: MekongApi;

  constructor(
    api: MekongApi,
    /** Present in browser mode: sends a local file to the server machine. */
    readonly upload: Uploader | null,
    /** Present in browser mode: exports can be downloaded to this computer. */
    readonly downloadUrl: DownloadUrl | null = null,
  ) {
    this.api = {
      invoke: async (channel, input, options) => {
        try {
          return await api.invoke(channel, input, options);
        } catch (err) {
          if (err instanceof ApiError && err.kind === 'gone') this.goneNoticed = true;
          throw err;
        }
      },
      onEvent: (listener) => api.onEvent(listener),
    };
  }

  /** A team server's account role; null in single-user modes. */
  get role(): TeamRole | null {
    return this.info?.role ?? null;
  }

  /** Whether the caller may call `channel`: always in single-user modes; on a team server, as the role table says. */
  may(channel: Channel): boolean {
    const allowed = this.info?.channels;
    return !allowed || allowed.includes(channel);
  }

  /** The open project's file was deleted, moved or replaced: edits are refused until a copy is saved. */
  get fileGone(): boolean {
    return this.goneNoticed || (this.project?.fileGone ?? false);
  }

  /** Saves everything the open project holds into a new file at `path` and goes on working there. */
  saveCopy(path: string): Promise<boolean> {
    return this.run(async () => {
      this.project = await this.api.invoke('project.saveCopy', { path });
      this.goneNoticed = false;
    });
  }

  async load(): Promise<void> {
    await this.run(async () => {
      const info = await this.api.invoke('app.info', {});
      this.info = info;
      this.annotator = info.annotator;
      this.project = info.project;
    });
  }

  openSample(): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.openSample', {})));
  }

  createProject(input: ChannelInput<'project.create'>): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.create', input)));
  }

  openProject(path: string): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.open', { path })));
  }

  closeProject(): Promise<boolean> {
    return this.run(async () => {
      await this.api.invoke('project.close', {});
      // The start screen's recent projects changed since the app started: read them before
      // the start screen shows, so it never lists the old ones first.
      this.info = await this.api.invoke('app.info', {});
      this.project = null;
    });
  }

  setAnnotator(annotator: string): Promise<boolean> {
    return this.run(async () => {
      await this.api.invoke('settings.setAnnotator', { annotator });
      this.annotator = annotator.trim();
    });
  }

  /** Re-reads the open project's counts (after an import or a status change). */
  async refreshProject(): Promise<void> {
    await this.run(async () => void (this.project = await this.api.invoke('project.info', {})));
  }

  /** Replaces the open project's link tags (links keep the tags they have). */
  setLinkTags(tags: string[]): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.setLinkTags', { tags })));
  }

  /** Corrects the open project's language codes. */
  setLanguages(srcLang: string, tgtLang: string): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.setLanguages', { srcLang, tgtLang })));
  }

  /** Whether the project's annotators see each other's gold and rejections (else blind double annotation). */
  setAnnotatorsShare(share: boolean): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.setAnnotatorsShare', { share })));
  }

  /** Names the project's pretrained encoder folder (checked on the Node side), or forgets it (null). */
  setEncoder(dir: string | null): Promise<boolean> {
    return this.run(async () => void (this.project = await this.api.invoke('project.setEncoder', { dir })));
  }

  dismissError(): void {
    this.error = null;
  }

  /** Runs one action; true when it succeeded, otherwise its message is in `error`. */
  private async run(action: () => Promise<void>): Promise<boolean> {
    this.busy = true;
    this.error = null;
    try {
      await action();
      return true;
    } catch (err) {
      this.error = errorMessage(err);
      return false;
    } finally {
      this.busy = false;
    }
  }
}
