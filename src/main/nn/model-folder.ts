// The one model folder of every model family, Hugging Face style:
//   config.json            what rebuilds the model; a Mekong family's starts with
//                          { format: "mekong-model-folder", family, version }
//   model.safetensors      the parameters and tables by name (or the shards a
//                          model.safetensors.index.json names, as transformers writes them)
//   optimizer.safetensors  AdamW's moments m.<name>, v.<name> and the step (only when the
//                          training is to be resumed exactly)
//   …the family's files    vocabulary or tokenizer files, and folders of other families it
//                          carries (Bi-Sent2Vec's statistical lexicon/, written by `inside`)
// Each family declares its name, the version it writes and the files it needs (FolderFamily);
// its save module (align/saved-model.ts, models/<family>/saved.ts, transformer/hf-checkpoint.ts)
// turns a model into FolderContent and a ModelFolder back into a model.
// A pretrained encoder's Hugging Face folder is that family's native folder: its config.json
// is transformers' own, written and read verbatim (writeModelFolder, readFolderConfig,
// readFolderTensors). Folders of the layouts before this one are read by
// legacy-model-folders.ts into the same ModelFolder, so a family's loader has one path.
// Writes are atomic: everything goes into a temporary folder beside `dir` (<dir>.partial-…),
// which then takes its place, so a save killed half-way leaves the previous folder or the new
// one, never half of one (the previous one is moved aside and the new one renamed in, two
// renames apart: a kill exactly between them leaves the previous one as <dir>.replaced-…).
// A damaged folder is refused in one line naming the file: a missing file or tensor, a tensor
// of the wrong shape or dtype, a truncated safetensors file. Also: the forward graph exported
// as a standalone ONNX model with the weights baked in.
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { threadId } from 'node:worker_threads';
import { UserError } from '../errors.ts';
import type { Graph, Value } from './graph.ts';
import { readLegacyFolder } from './legacy-model-folders.ts';
import { toModelProto } from './onnx/serialize.ts';
import { encodeSafetensors, readSafetensors } from './safetensors.ts';
import type { Tensor } from './tensor.ts';
import type { TrainState } from './trainer.ts';

export const FOLDER_FORMAT = 'mekong-model-folder';
export const CONFIG_FILE = 'config.json';
export const WEIGHTS_FILE = 'model.safetensors';
export const WEIGHTS_INDEX_FILE = 'model.safetensors.index.json';
export const OPTIMIZER_FILE = 'optimizer.safetensors';

/** What a model family declares about its folder. */
export interface FolderFamily {
  /** config.json's `family` */
  family: string;
  /** the version of the family's layout this code writes (and the newest it reads) */
  version: number;
  /** files beside config.json and model.safetensors that the family needs (vocabulary, tokenizer) */
  files: readonly string[];
}

/** The head of a Mekong family's config.json. */
export interface FolderHeader {
  format: typeof FOLDER_FORMAT;
  family: string;
  version: number;
}

/** What a folder holds, as written. */
export interface FolderContent {
  /** config.json (a Mekong family's fields; saveModelFolder adds the header) */
  config: object;
  /** model.safetensors */
  tensors: ReadonlyMap<string, Tensor>;
  /** model.safetensors' __metadata__ ({ format: 'pt' }, which transformers expects, unless given) */
  metadata?: Record<string, string>;
  /** the family's other files by name: text as UTF-8, bytes as they are */
  files?: ReadonlyMap<string, string | Uint8Array>;
  /** AdamW's state, to resume training exactly */
  optimizer?: TrainState;
}

/** A folder as read: config.json, model.safetensors, the optimizer state and the family's files. */
export interface ModelFolder<C> {
  dir: string;
  config: C & FolderHeader;
  tensors: Map<string, Tensor>;
  /** where the tensors were read from, for errors */
  tensorFile: string;
  optimizer: TrainState | null;
  /** the family's declared files by name */
  files: Map<string, Uint8Array>;
}

/**
 * Writes `content` as the folder `dir` verbatim (config.json as given), replacing a previous
 * model folder atomically; `inside(tmp)` adds what the family carries besides (another
 * family's folder) to the temporary folder before it takes `dir`'s place.
 */
export function writeModelFolder(folder: string, content: FolderContent, inside?: (tmp: string) => void): void {
  refuseForeignFolder(folder);
  const dir = resolve(folder); // without a trailing slash, so that the temporary folder is beside it
  const tmp = `${dir}.partial-${process.pid}-${threadId}`;
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(dirname(tmp), { recursive: true });
  try {
    writeContent(tmp, content);
    inside?.(tmp);
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw err;
  }
  if (!existsSync(dir)) return renameSync(tmp, dir);
  const old = `${dir}.replaced-${process.pid}-${threadId}`;
  rmSync(old, { recursive: true, force: true });
  renameSync(dir, old);
  renameSync(tmp, dir);
  rmSync(old, { recursive: true, force: true });
}

/** A Mekong family's folder: config.json gets the family's header before its own fields. */
export function saveModelFolder(dir: string, family: FolderFamily, content: FolderContent, inside?: (tmp: string) => void): void {
  const header: FolderHeader = { format: FOLDER_FORMAT, family: family.family, version: family.version };
  writeModelFolder(dir, { ...content, config: { ...header, ...content.config } }, inside);
}

/** Saving replaces a model folder or fills an empty one; any other folder is the user's and is left alone. */
function refuseForeignFolder(dir: string): void {
  if (!existsSync(dir)) return;
  if (!statSync(dir).isDirectory()) throw new UserError(`${dir}: a file, not a folder; give a new or empty folder`);
  const names = readdirSync(dir);
  if (names.length && !names.includes(CONFIG_FILE) && !names.includes('model.json'))
    throw new UserError(`${dir}: not empty and not a model folder; give a new or empty folder`);
}

function writeContent(dir: string, c: FolderContent): void {
  mkdirSync(dir);
  writeFileSync(join(dir, WEIGHTS_FILE), encodeSafetensors(c.tensors, c.metadata ?? { format: 'pt' }));
  if (c.optimizer) {
    const moments = new Map<string, Tensor>();
    for (const [n, t] of c.optimizer.m) moments.set(`m.${n}`, t);
    for (const [n, t] of c.optimizer.v) moments.set(`v.${n}`, t);
    writeFileSync(join(dir, OPTIMIZER_FILE), encodeSafetensors(moments, { step: String(c.optimizer.step) }));
  }
  for (const [name, data] of c.files ?? []) writeFileSync(join(dir, name), data);
  writeFileSync(join(dir, CONFIG_FILE), JSON.stringify(c.config, null, 2) + '\n');
}

/** `dir`/config.json as JSON; a missing or unreadable file is a one-line error naming it. */
export function readFolderConfig(dir: string): Record<string, unknown> {
  const file = join(dir, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new UserError(`${file}: ${missingOr(err)}`);
  }
  try {
    const config = JSON.parse(text) as unknown;
    if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new Error('not an object');
    return config as Record<string, unknown>;
  } catch (err) {
    throw new UserError(`${file}: not a model folder's config (${(err as Error).message.split('\n')[0]})`);
  }
}

/** Every tensor of `dir`: model.safetensors, or the shards its index names; `file` names the source in errors. */
export function readFolderTensors(dir: string): { tensors: Map<string, Tensor>; file: string } {
  const single = join(dir, WEIGHTS_FILE);
  const index = join(dir, WEIGHTS_INDEX_FILE);
  if (existsSync(single) || !existsSync(index)) return { tensors: readFolderSafetensors(dir, WEIGHTS_FILE), file: single };
  let map: Record<string, string>;
  try {
    map = (JSON.parse(readFileSync(index, 'utf8')) as { weight_map: Record<string, string> }).weight_map;
    if (typeof map !== 'object' || map === null) throw new Error('no weight_map');
  } catch (err) {
    throw new UserError(`${index}: not an index of safetensors shards (${(err as Error).message.split('\n')[0]})`);
  }
  const tensors = new Map<string, Tensor>();
  for (const shard of new Set(Object.values(map))) for (const [k, t] of readFolderSafetensors(dir, shard)) tensors.set(k, t);
  return { tensors, file: index };
}

/** Whether `dir` has tensors to read (one file or an index of shards). */
export function hasFolderTensors(dir: string): boolean {
  return existsSync(join(dir, WEIGHTS_FILE)) || existsSync(join(dir, WEIGHTS_INDEX_FILE));
}

/** The tensors of one safetensors file of the folder (a shard, or a family's extra such as the encoder's language embeddings). */
export function readFolderSafetensors(dir: string, name: string): Map<string, Tensor> {
  const file = join(dir, name);
  if (!existsSync(file)) throw new UserError(`${file}: missing`);
  return readSafetensors(file).tensors;
}

function missingOr(err: unknown): string {
  const e = err as NodeJS.ErrnoException;
  return e.code === 'ENOENT' ? 'missing' : e.message.split('\n')[0];
}

/** Reads a folder of `family`, in its layout of today or (legacy-model-folders.ts) of an older version. */
export function loadModelFolder<C>(dir: string, family: FolderFamily): ModelFolder<C> {
  const file = join(dir, CONFIG_FILE);
  const raw = existsSync(file) || !existsSync(dir) ? readFolderConfig(dir) : null;
  if (raw?.format !== FOLDER_FORMAT) {
    const legacy = readLegacyFolder(dir, family.family, raw);
    if (legacy) return { dir, optimizer: null, ...legacy } as ModelFolder<C>;
    if (!raw) readFolderConfig(dir); // throws: config.json missing
    throw new UserError(`${file}: not a Mekong model folder (format ${String(raw?.format)}), not ${family.family}`);
  }
  const config = raw as C & FolderHeader;
  if (config.family !== family.family) throw new UserError(`${file}: a ${String(config.family)} model, not ${family.family}`);
  if (!Number.isInteger(config.version) || config.version < 1 || config.version > family.version)
    throw new UserError(
      `${file}: ${family.family} version ${String(config.version)} is not one this Mekong reads (1 to ${family.version})`,
    );
  const { tensors, file: tensorFile } = readFolderTensors(dir);
  let optimizer: TrainState | null = null;
  const moments = join(dir, OPTIMIZER_FILE);
  if (existsSync(moments)) {
    const { tensors: saved, metadata } = readSafetensors(moments);
    optimizer = { step: Number(metadata.step ?? 0), params: tensors, m: new Map(), v: new Map() };
    for (const [k, t] of saved) (k.startsWith('m.') ? optimizer.m : optimizer.v).set(k.slice(2), t);
  }
  const files = new Map<string, Uint8Array>();
  for (const name of family.files) {
    try {
      files.set(name, readFileSync(join(dir, name)));
    } catch (err) {
      throw new UserError(`${join(dir, name)}: ${missingOr(err)}`);
    }
  }
  return { dir, config, tensors, tensorFile, optimizer, files };
}

/** A declared file of a folder as text. */
export function folderText(folder: ModelFolder<unknown>, name: string): string {
  const bytes = folder.files.get(name);
  if (!bytes) throw new Error(`${name} is not one of the family's declared files`);
  return new TextDecoder().decode(bytes);
}

/** A declared file of a folder as JSON; a file that is not JSON is a one-line error naming it. */
export function folderJson<T>(folder: ModelFolder<unknown>, name: string): T {
  try {
    return JSON.parse(folderText(folder, name)) as T;
  } catch (err) {
    throw new UserError(`${join(folder.dir, name)}: not JSON (${(err as Error).message.split('\n')[0]})`);
  }
}

/** The tensor `name` of the folder, refused in one line naming model.safetensors when missing or not of `dtype` [shape]. */
export function folderTensor(folder: ModelFolder<unknown>, name: string, dtype: string, shape: readonly number[]): Tensor {
  const file = folder.tensorFile;
  const t = folder.tensors.get(name);
  if (!t) throw new UserError(`${file}: missing tensor ${name}`);
  if (t.dims.join() !== shape.join())
    throw new UserError(`${file}: tensor ${name} has shape [${t.dims.join(', ')}] but the folder's config implies [${shape.join(', ')}]`);
  if (t.type !== dtype) throw new UserError(`${file}: tensor ${name} is ${t.type}, not ${dtype}`);
  return t;
}

/** The forward graph as a standalone ONNX model: parameters become initializers. */
export function exportOnnx(graph: Graph, outputs: Readonly<Record<string, Value>>, params: ReadonlyMap<string, Tensor>): Uint8Array {
  return toModelProto(graph, outputs, { bake: params, producer: 'mekong-nn export' });
}
