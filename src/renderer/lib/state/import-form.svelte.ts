// The import dialog's choices and their translation into the contract's import options
// (uploading local files first in browser mode). Only options that apply to the chosen
// format are sent. The server names an uploaded file in its messages by the name the user
// chose it by.
import type { ImportOptions, importFormats } from '../../../shared/api.ts';
import type { Uploader } from './app-state.svelte.ts';
import { emptySource, isChosen, serverPath, type FileSource } from './file-source.ts';

export type ImportFormat = (typeof importFormats)[number];

/** A column given as digits is an index (0-based), otherwise a header name. */
function column(value: string): string | number | undefined {
  const v = value.trim();
  if (!v) return undefined;
  return /^\d+$/.test(v) ? Number(v) : v;
}

export class ImportForm {
  format = $state<ImportFormat>('csv');
  file = $state<FileSource>(emptySource());
  tgtFile = $state<FileSource>(emptySource());
  /** Whether the first line is a header; null until the user says: then, as `mekong import` and
   *  the reader decide it, a header when a column is chosen by name or when both its cells are
   *  header words (the project's languages, "source", "target", …), which the import reports. */
  headerChoice = $state<boolean | null>(null);
  srcColumn = $state('');
  tgtColumn = $state('');
  tokenization = $state<'segment' | 'pretokenized'>('segment');
  withLinks = $state(false);
  linksFile = $state<FileSource>(emptySource());
  linksFormat = $state<'pharaoh' | 'talp'>('pharaoh');
  linksOneBased = $state(false);
  /** Import even when a side's script does not match the project's language. */
  anyScript = $state(false);
  /** Then keep recurring Lao and Thai names whole (learn words from the corpus; on by default). */
  learnWords = $state(true);

  readonly tabular = $derived(this.format === 'tsv' || this.format === 'csv');
  readonly header: boolean = $derived(
    this.headerChoice ?? (typeof column(this.srcColumn) === 'string' || typeof column(this.tgtColumn) === 'string'),
  );
  readonly complete = $derived(
    isChosen(this.file) && (this.format !== 'moses' || isChosen(this.tgtFile)) && (!this.withLinks || isChosen(this.linksFile)),
  );

  async options(upload: Uploader | null): Promise<ImportOptions> {
    const path = (source: FileSource) => serverPath(source, upload);
    const options: ImportOptions = { format: this.format, file: await path(this.file), tokenization: this.tokenization };
    if (this.format === 'moses') options.tgtFile = await path(this.tgtFile);
    if (this.tabular) {
      if (this.headerChoice !== null) options.header = this.headerChoice;
      options.srcColumn = column(this.srcColumn);
      options.tgtColumn = column(this.tgtColumn);
    }
    if (this.withLinks) {
      options.linksFile = await path(this.linksFile);
      options.linksFormat = this.linksFormat;
      options.linksOneBased = this.linksOneBased;
    }
    if (this.anyScript) options.anyScript = true;
    if (!this.learnWords || this.tokenization === 'pretokenized') options.learnWords = false;
    return options;
  }
}
