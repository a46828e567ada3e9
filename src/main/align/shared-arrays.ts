// Typed arrays on SharedArrayBuffers: the training threads read and write them without
// copies (a plain ArrayBuffer would be cloned into every worker thread).

export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(Math.max(1, length) * 4), 0, length);
}

export function sharedUint8(length: number): Uint8Array {
  return new Uint8Array(new SharedArrayBuffer(Math.max(1, length)), 0, length);
}

export function sharedUint16(length: number): Uint16Array {
  return new Uint16Array(new SharedArrayBuffer(Math.max(1, length) * 2), 0, length);
}

export function sharedFloat32(length: number): Float32Array {
  return new Float32Array(new SharedArrayBuffer(Math.max(1, length) * 4), 0, length);
}

export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(Math.max(1, length) * 8), 0, length);
}
