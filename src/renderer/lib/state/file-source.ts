// Where an input file comes from: a path on the machine running the Node side, or (in
// browser mode) a local file uploaded there first. Either way the API gets a path.
import type { Uploader } from './app-state.svelte.ts';

export interface FileSource {
  mode: 'path' | 'upload';
  path: string;
  file: File | null;
}

export function emptySource(): FileSource {
  return { mode: 'path', path: '', file: null };
}

export function isChosen(source: FileSource): boolean {
  return source.mode === 'path' ? source.path.trim() !== '' : source.file !== null;
}

/** The server-side path of a source, uploading its file first when needed. */
export async function serverPath(source: FileSource, upload: Uploader | null): Promise<string> {
  if (source.mode === 'path') return source.path.trim();
  if (!source.file || !upload) throw new Error('choose a file to upload');
  return upload(source.file);
}
