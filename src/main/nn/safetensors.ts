// The safetensors file format (Hugging Face): an 8-byte little-endian header length N,
// N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}, __metadata__: {…}},
// then the tensors' raw little-endian bytes, each at its offsets within the data block.
import { readFileSync, writeFileSync } from 'node:fs';
import { type DType, Tensor } from './tensor.ts';

const CODES: Record<string, DType> = { F32: 'float32', F64: 'float64', I64: 'int64', BOOL: 'bool' };
const NAMES: Record<DType, string> = { float32: 'F32', float64: 'F64', int64: 'I64', bool: 'BOOL' };

export function encodeSafetensors(tensors: ReadonlyMap<string, Tensor>, metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const [name, t] of [...tensors].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const d = t.data as ArrayBufferView;
    const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    header[name] = { dtype: NAMES[t.type as DType], shape: t.dims, data_offsets: [offset, offset + bytes.length] };
    parts.push(bytes);
    offset += bytes.length;
  }
  let json = JSON.stringify(header);
  json += ' '.repeat((8 - (json.length % 8)) % 8); // keep the data block 8-byte aligned
  const head = new TextEncoder().encode(json);
  const out = new Uint8Array(8 + head.length + offset);
  new DataView(out.buffer).setBigUint64(0, BigInt(head.length), true);
  out.set(head, 8);
  let at = 8 + head.length;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

interface Entry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

export function decodeSafetensors(
  bytes: Uint8Array,
  file = 'safetensors',
): { tensors: Map<string, Tensor>; metadata: Record<string, string> } {
  if (bytes.length < 8) throw new Error(`${file}: too short for a safetensors file`);
  const n = Number(new DataView(bytes.buffer, bytes.byteOffset, 8).getBigUint64(0, true));
  if (8 + n > bytes.length) throw new Error(`${file}: header length ${n} exceeds the file`);
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n))) as Record<string, Entry | Record<string, string>>;
  const base = 8 + n;
  const tensors = new Map<string, Tensor>();
  for (const [name, e] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const {
      dtype,
      shape,
      data_offsets: [b, end],
    } = e as Entry;
    const type = Object.hasOwn(CODES, dtype) ? CODES[dtype] : undefined;
    if (!type) throw new Error(`${file}: tensor ${name} has unsupported dtype ${dtype}`);
    const raw = bytes.slice(base + b, base + end).buffer;
    tensors.set(name, new Tensor(type, typed(type, raw) as never, shape));
  }
  return { tensors, metadata: (header.__metadata__ as Record<string, string>) ?? {} };
}

function typed(type: DType, raw: ArrayBuffer) {
  switch (type) {
    case 'float32':
      return new Float32Array(raw);
    case 'float64':
      return new Float64Array(raw);
    case 'int64':
      return new BigInt64Array(raw);
    case 'bool':
      return new Uint8Array(raw);
  }
}

export function writeSafetensors(path: string, tensors: ReadonlyMap<string, Tensor>, metadata?: Record<string, string>): void {
  writeFileSync(path, encodeSafetensors(tensors, metadata));
}

export function readSafetensors(path: string) {
  return decodeSafetensors(new Uint8Array(readFileSync(path)), path);
}
