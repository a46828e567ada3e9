// Tensors made from JavaScript numbers: int64s writes int32-range values as two 32-bit halves
// and the rest through BigInt, so every value must come out as BigInt would make it.
import { expect, test } from 'vitest';
import { int64s } from '../../../src/main/nn/tensor.ts';

test('int64s holds every integer as BigInt makes it, in and beyond the int32 range', () => {
  const values = [
    0,
    -0,
    1,
    -1,
    7,
    2 ** 31 - 1,
    -(2 ** 31),
    2 ** 31,
    -(2 ** 31) - 1,
    2 ** 40 + 3,
    -(2 ** 40) - 5,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
  ];
  const t = int64s(values, [values.length]);
  expect(Array.from(t.data as BigInt64Array)).toEqual(values.map((v) => BigInt(v)));
  expect(t.type).toBe('int64');
  expect(Array.from(int64s(Int32Array.of(-3, 4), [2, 1]).data as BigInt64Array)).toEqual([-3n, 4n]);
});

test('int64s refuses what is not an integer, and a shape of another size', () => {
  expect(() => int64s([1, 2.5])).toThrow(RangeError);
  expect(() => int64s([Number.NaN])).toThrow(RangeError);
  expect(() => int64s([1, 2, 3], [2, 2])).toThrow('int64s: 3 values for shape [2,2]');
});
