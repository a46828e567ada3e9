// The safetensors file format (Hugging Face): an 8-byte little-endian header length N,
// N bytes of JSON {name: {dtype, shape, data_offsets: [begin, end]}, __metadata__: {…}},
// then the tensors' raw little-endian bytes, each at its offsets within the data block.
// Half-precision tensors (F16, BF16: how pretrained checkpoints are often shipped) are read
// widened to float32, the dtype our graphs compute in; I32 (the statistical models' word-pair
// ids) is read as an int32 tensor, which no graph feeds on. A damaged file (a header that is not
// JSON, data past the end of a truncated file) is a one-line UserError naming the file.
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { UserError } from '../errors.ts';
import { type DType, Tensor } from './tensor.ts';

/** The dtypes a file holds as they are: the graphs' dtypes and int32. */
type StoredType = DType | 'int32';

const CODES: Record<string, StoredType> = { F32: 'float32', F64: 'float64', I64: 'int64', I32: 'int32', BOOL: 'bool' };
const NAMES: Record<StoredType, string> = { float32: 'F32', float64: 'F64', int64: 'I64', int32: 'I32', bool: 'BOOL' };

export function encodeSafetensors(tensors: ReadonlyMap<string, Tensor>, metadata: Record<string, string> = {}): Uint8Array {
  const header: Record<string, unknown> = { __metadata__: metadata };
  let offset = 0;
  const parts: Uint8Array[] = [];
  for (const [name, t] of [...tensors].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const d = t.data as ArrayBufferView;
    const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    header[name] = { dtype: NAMES[t.type as StoredType], shape: t.dims, data_offsets: [offset, offset + bytes.length] };
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

/** Where the bytes come from: `size` bytes, of which `read` returns [begin, end) as its own copy. */
interface ByteSource {
  size: number;
  read(begin: number, end: number): Uint8Array;
}

type Decoded = { tensors: Map<string, Tensor>; metadata: Record<string, string> };

function decode(src: ByteSource, file: string): Decoded {
  if (src.size < 8) throw new UserError(`${file}: too short for a safetensors file`);
  const head = src.read(0, 8);
  const n = Number(new DataView(head.buffer, head.byteOffset, 8).getBigUint64(0, true));
  if (8 + n > src.size) throw new UserError(`${file}: header length ${n} exceeds the file (${src.size} bytes): truncated?`);
  let header: Record<string, Entry | Record<string, string>>;
  try {
    header = JSON.parse(new TextDecoder().decode(src.read(8, 8 + n))) as typeof header;
  } catch (err) {
    throw new UserError(`${file}: the safetensors header is not JSON (${(err as Error).message.split('\n')[0]})`);
  }
  const base = 8 + n;
  const tensors = new Map<string, Tensor>();
  for (const [name, e] of Object.entries(header)) {
    if (name === '__metadata__') continue;
    const {
      dtype,
      shape,
      data_offsets: [b, end],
    } = e as Entry;
    if (!(end >= b && b >= 0) || base + end > src.size)
      throw new UserError(`${file}: tensor ${name}'s data ends at byte ${base + end} but the file has ${src.size} bytes: truncated?`);
    const half = Object.hasOwn(HALF, dtype) ? HALF[dtype] : undefined;
    const need = shape.reduce((a, x) => a * x, 1) * (half ? 2 : Object.hasOwn(BYTES, dtype) ? BYTES[dtype] : 0);
    if (need && need !== end - b)
      throw new UserError(`${file}: tensor ${name} has ${end - b} bytes but ${dtype} [${shape.join(', ')}] needs ${need}`);
    const type = half ? 'float32' : Object.hasOwn(CODES, dtype) ? CODES[dtype] : undefined;
    if (!type) throw new UserError(`${file}: tensor ${name} has unsupported dtype ${dtype}`);
    const raw = src.read(base + b, base + end);
    tensors.set(name, new Tensor(type, (half ? widen(raw, half) : typed(type, raw.buffer as ArrayBuffer)) as never, shape));
  }
  return { tensors, metadata: (header.__metadata__ as Record<string, string>) ?? {} };
}

export function decodeSafetensors(bytes: Uint8Array, file = 'safetensors'): Decoded {
  return decode({ size: bytes.length, read: (b, e) => bytes.slice(b, e) }, file);
}

/** Bytes per element of the stored dtypes we read as they are. */
const BYTES: Readonly<Record<string, number>> = { F32: 4, F64: 8, I64: 8, I32: 4, BOOL: 1 };

/** The two 16-bit float formats, read widened to float32. */
const HALF: Readonly<Record<string, 'f16' | 'bf16'>> = { F16: 'f16', BF16: 'bf16' };

/** IEEE half (1-5-10) or bfloat16 (1-8-7, the top half of a float32) to float32. */
function widen(raw: Uint8Array, kind: 'f16' | 'bf16'): Float32Array {
  const n = raw.length >> 1;
  const out = new Float32Array(n);
  const bits = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) {
    const h = raw[2 * i] | (raw[2 * i + 1] << 8);
    if (kind === 'bf16') {
      bits[i] = h << 16;
      continue;
    }
    const sign = h & 0x8000 ? -1 : 1;
    const exp = (h >> 10) & 0x1f;
    const frac = h & 0x3ff;
    if (exp === 0)
      out[i] = sign * frac * 2 ** -24; // subnormal
    else if (exp === 31) out[i] = frac ? NaN : sign * Infinity;
    else out[i] = sign * (1 + frac / 1024) * 2 ** (exp - 15);
  }
  return out;
}

function typed(type: StoredType, raw: ArrayBuffer) {
  switch (type) {
    case 'int32':
      return new Int32Array(raw);
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

/** Reads a file tensor by tensor (peak memory: the tensors, not the file twice over, e.g. 1.1 GB for XLM-R base). */
export function readSafetensors(path: string): Decoded {
  const fd = openSync(path, 'r');
  try {
    const read = (begin: number, end: number) => {
      const out = new Uint8Array(end - begin);
      for (let at = 0; at < out.length;) {
        const got = readSync(fd, out, at, out.length - at, begin + at);
        if (got === 0) break;
        at += got;
      }
      return out;
    };
    return decode({ size: fstatSync(fd).size, read }, path);
  } finally {
    closeSync(fd);
  }
}
