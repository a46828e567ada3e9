// Runtime tensors: onnxruntime's own Tensor class is the one host-side tensor type of nn/
// (constants, parameters, feeds and results), plus small constructors and dtype facts.
// The class lives in onnxruntime-common (plain JavaScript) and is taken from there, as
// onnxruntime-node itself requires it (the same CommonJS instance, so sessions accept these
// tensors and return the same class): code that only reads and writes model files (a
// statistical model folder, safetensors) then never loads onnxruntime's native library.
import { createRequire } from 'node:module';
import type ort from 'onnxruntime-node';

const requireFromOrt = createRequire(createRequire(import.meta.url).resolve('onnxruntime-node'));
const common = requireFromOrt('onnxruntime-common') as { Tensor: typeof ort.Tensor };

export type Tensor = ort.Tensor;
export const Tensor = common.Tensor;

export type DType = 'float32' | 'float64' | 'int64' | 'bool';
export type FloatDType = 'float32' | 'float64';

/** ONNX TensorProto.DataType codes. */
export const ONNX_ELEM: Record<DType, number> = { float32: 1, int64: 7, bool: 9, float64: 11 };

export function isFloat(d: DType): d is FloatDType {
  return d === 'float32' || d === 'float64';
}

export function sizeOf(shape: readonly number[]): number {
  return shape.reduce((a, b) => a * b, 1);
}

/** A float tensor from numbers (copied into the dtype's array). */
export function floats(values: ArrayLike<number>, shape: readonly number[], dtype: FloatDType = 'float32'): Tensor {
  const data = dtype === 'float32' ? Float32Array.from(values) : Float64Array.from(values);
  if (data.length !== sizeOf(shape)) throw new Error(`floats: ${data.length} values for shape [${shape}]`);
  return new Tensor(dtype, data, [...shape]);
}

/** Whether this machine stores the low 32 bits of an int64 first (x64 and arm64 do). */
const littleEndian = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/**
 * An int64 tensor from integers (a non-integer is a RangeError, as BigInt makes it). Values
 * within int32 are written as two 32-bit halves, without a BigInt each: a bilstm-ctl batch's
 * feeds at T = 32 hold ~16k ids, and making them through BigInts was most of its 3.4 ms.
 */
export function int64s(values: ArrayLike<number>, shape: readonly number[] = [values.length]): Tensor {
  const n = values.length;
  if (n !== sizeOf(shape)) throw new Error(`int64s: ${n} values for shape [${shape}]`);
  const data = new BigInt64Array(n);
  const halves = new Int32Array(data.buffer);
  for (let i = 0; i < n; i++) {
    const v = values[i];
    if (littleEndian && (v | 0) === v) {
      halves[2 * i] = v;
      halves[2 * i + 1] = v < 0 ? -1 : 0;
    } else data[i] = BigInt(v);
  }
  return new Tensor('int64', data, [...shape]);
}

export function zeros(shape: readonly number[], dtype: FloatDType = 'float32'): Tensor {
  const n = sizeOf(shape);
  return new Tensor(dtype, dtype === 'float32' ? new Float32Array(n) : new Float64Array(n), [...shape]);
}

/** The tensor's data as a plain float array view (float dtypes only). */
export function floatData(t: Tensor): Float32Array | Float64Array {
  if (t.type !== 'float32' && t.type !== 'float64') throw new Error(`expected a float tensor, got ${t.type}`);
  return t.data as Float32Array | Float64Array;
}

/** A copy with its own data buffer. */
export function cloneTensor(t: Tensor): Tensor {
  return new Tensor(t.type as DType, (t.data as Float32Array).slice() as never, [...t.dims]);
}
