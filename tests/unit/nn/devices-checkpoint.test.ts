// Device selection with clean fallback, and the safetensors format read by other tools.
import { expect, test } from 'vitest';
import { decodeSafetensors, encodeSafetensors } from '../../../src/main/nn/safetensors.ts';
import { openSession, parseDevice, preferenceOrder } from '../../../src/main/nn/devices.ts';
import { Graph } from '../../../src/main/nn/graph.ts';
import { toModelProto } from '../../../src/main/nn/onnx/serialize.ts';
import { exp } from '../../../src/main/nn/ops/all-ops.ts';
import { floats, int64s } from '../../../src/main/nn/tensor.ts';

function tinyModel(): Uint8Array {
  const g = new Graph();
  return toModelProto(g, { y: exp(g.input('x', 'float32', [2])) });
}

test('provider preference per platform, forced settings fall back to CPU', () => {
  expect(preferenceOrder('auto', 'linux')).toEqual(['cuda', 'cpu']);
  expect(preferenceOrder('auto', 'win32')).toEqual(['cuda', 'dml', 'cpu']);
  expect(preferenceOrder('auto', 'darwin')).toEqual(['coreml', 'cpu']);
  expect(preferenceOrder('webgpu', 'linux')).toEqual(['webgpu', 'cpu']);
  expect(preferenceOrder('cuda')).toEqual(['cuda', 'cpu']);
  expect(preferenceOrder('cpu')).toEqual(['cpu']);
  expect(() => parseDevice('tpu')).toThrow(/unknown device 'tpu'/);
});

// This machine and CI have no GPU and no CUDA libraries: the request must fall back.
test.each(['cuda', 'coreml'] as const)('requesting unavailable %s falls back to CPU with one log line', async (device) => {
  const lines: string[] = [];
  const { session, device: used } = await openSession(tinyModel(), { device, log: (l) => lines.push(l) });
  expect(used).toBe('cpu');
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(new RegExp(`^nn: execution provider cpu \\(requested ${device}; unavailable: ${device}: `));
  const y = await session.run({ x: floats([0, 1], [2]) });
  expect(Array.from(y.y.data as Float32Array)[1]).toBeCloseTo(Math.E, 5);
  await session.release();
});

test('safetensors: header layout and round trip', () => {
  const tensors = new Map([
    ['b.weight', floats([1, 2, 3, 4, 5, 6], [2, 3])],
    ['a.ids', int64s([7, -8])],
  ]);
  const bytes = encodeSafetensors(tensors, { step: '3' });
  const n = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + n)));
  expect(header['a.ids']).toEqual({ dtype: 'I64', shape: [2], data_offsets: [0, 16] });
  expect(header['b.weight']).toEqual({ dtype: 'F32', shape: [2, 3], data_offsets: [16, 40] });
  expect((8 + n) % 8).toBe(0);
  const back = decodeSafetensors(bytes);
  expect(back.metadata).toEqual({ step: '3' });
  expect(Array.from(back.tensors.get('b.weight')!.data as Float32Array)).toEqual([1, 2, 3, 4, 5, 6]);
  expect(Array.from(back.tensors.get('a.ids')!.data as BigInt64Array)).toEqual([7n, -8n]);
  expect(() => decodeSafetensors(bytes.subarray(0, 12), 'x.safetensors')).toThrow(/x.safetensors: header length/);
});
