// The WebAssembly AdamW step against the typed-array loop of adamw.ts on the same state and
// gradients (sizes that are and are not multiples of four lanes, clipping active), adoption
// of a tensor put into the state from outside, and release leaving plain copies behind; a
// table's gradient given as rows (more than one scratch chunk of them, repeated and negative
// indices) against the same rows made dense for the loop, and a row outside its table.
import { describe, expect, test } from 'vitest';
import { AdamWKernel, type OptimizerState } from '../../../src/main/nn/optim/adamw-kernel.ts';
import { adamwUpdate, clipScale } from '../../../src/main/nn/optim/adamw.ts';
import { denseGradient, type GradientRows } from '../../../src/main/nn/optim/row-gradients.ts';
import { Tensor } from '../../../src/main/nn/tensor.ts';

const sizes = { a: 1027, b: 64, c: 3 };

function random(n: number, seed: number, scale: number): Float32Array {
  let x = seed;
  return Float32Array.from({ length: n }, () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return (x / 2 ** 31 - 0.5) * scale;
  });
}

function state(seed: number): OptimizerState {
  const s: OptimizerState = { params: new Map(), m: new Map(), v: new Map() };
  for (const [name, n] of Object.entries(sizes)) {
    s.params.set(name, new Tensor('float32', random(n, seed + n, 2), [n]));
    s.m.set(name, new Tensor('float32', new Float32Array(n), [n]));
    s.v.set(name, new Tensor('float32', new Float32Array(n), [n]));
  }
  return s;
}

const names = Object.keys(sizes);
const cfg = { weightDecay: 0.01, clipNorm: 0.5 };

describe('AdamW in WebAssembly', () => {
  test('matches the typed-array loop step by step, with clipping', () => {
    const wasm = state(7);
    const host = state(7);
    const kernel = AdamWKernel.create(wasm, names)!;
    for (let t = 1; t <= 5; t++) {
      const grads = names.map((n, i) => random(sizes[n as keyof typeof sizes], 100 * t + i, 0.4));
      expect(clipScale(grads, cfg.clipNorm)).toBeLessThan(1);
      kernel.adopt(wasm);
      kernel.step(grads, 0.01, t, cfg);
      const scale = clipScale(grads, cfg.clipNorm);
      names.forEach((n, i) => {
        const s = { m: host.m.get(n)!.data as Float32Array, v: host.v.get(n)!.data as Float32Array };
        adamwUpdate(host.params.get(n)!.data as Float32Array, grads[i], s, 0.01, t, cfg, scale);
      });
    }
    for (const n of names)
      for (const map of ['params', 'm', 'v'] as const) {
        const a = wasm[map].get(n)!.data as Float32Array;
        const b = host[map].get(n)!.data as Float32Array;
        // float32 arithmetic against the loop's float64: equal to a few units of float32's precision of the largest value
        const size = b.reduce((w, x) => Math.max(w, Math.abs(x)), 0);
        const worst = a.reduce((w, x, i) => Math.max(w, Math.abs(x - b[i])), 0);
        expect(worst / size, `${map} ${n}`).toBeLessThan(1e-6);
      }
  });

  test("adds a table's gradient rows as the loop does the dense gradient", () => {
    const [V, w] = [300, 128];
    const table = (seed: number): OptimizerState => ({
      params: new Map([['t', new Tensor('float32', random(V * w, seed, 2), [V, w])]]),
      m: new Map([['t', new Tensor('float32', new Float32Array(V * w), [V, w])]]),
      v: new Map([['t', new Tensor('float32', new Float32Array(V * w), [V, w])]]),
    });
    const wasm = table(5);
    const host = table(5);
    const kernel = AdamWKernel.create(wasm, ['t'])!;
    for (let t = 1; t <= 3; t++) {
      // 5,000 rows (a megabyte of scratch holds 2,040 of this width) over 200 of the 300 table rows, some as negative indices
      const parts: GradientRows[] = [5000, 17].map((n, p) => ({
        idx: BigInt64Array.from({ length: n }, (_, k) => BigInt(((k * 7 + t + p) % 200) - (k % 3 === 0 ? V : 0))),
        rows: random(n * w, 31 * t + p, 0.2),
      }));
      kernel.adopt(wasm);
      kernel.step([parts], 0.01, t, cfg);
      const dense = denseGradient(parts, host.params.get('t')!.data as Float32Array);
      const s = { m: host.m.get('t')!.data as Float32Array, v: host.v.get('t')!.data as Float32Array };
      adamwUpdate(host.params.get('t')!.data as Float32Array, dense, s, 0.01, t, cfg, clipScale([dense], cfg.clipNorm));
    }
    for (const map of ['params', 'm', 'v'] as const) {
      const a = wasm[map].get('t')!.data as Float32Array;
      const b = host[map].get('t')!.data as Float32Array;
      const size = b.reduce((w, x) => Math.max(w, Math.abs(x)), 0);
      const worst = a.reduce((w, x, i) => Math.max(w, Math.abs(x - b[i])), 0);
      expect(worst / size, map).toBeLessThan(1e-6);
    }
    const outside: GradientRows = { idx: BigInt64Array.of(3n, BigInt(V)), rows: new Float32Array(2 * w) };
    expect(() => kernel.step([[outside]], 0.01, 4, cfg)).toThrow(`index ${V} outside a table of ${V} rows`);
  });

  test('adopts a tensor put into the state, and releases plain copies', () => {
    const s = state(3);
    const kernel = AdamWKernel.create(s, names)!;
    kernel.adopt(s);
    const restored = random(sizes.b, 99, 1);
    s.params.set('b', new Tensor('float32', restored.slice(), [sizes.b]));
    kernel.adopt(s);
    expect(Array.from(s.params.get('b')!.data as Float32Array)).toEqual(Array.from(restored));
    kernel.step(
      names.map((n) => new Float32Array(sizes[n as keyof typeof sizes]).fill(0.1)),
      0.01,
      1,
      {},
    );
    const viewed = s.params.get('a')!.data as Float32Array;
    const after = viewed.slice();
    kernel.release(s);
    const copy = s.params.get('a')!.data as Float32Array;
    expect(copy).not.toBe(viewed);
    expect(copy.buffer).not.toBe(viewed.buffer);
    expect(Array.from(copy)).toEqual(Array.from(after));
  });

  test('leaves float64 states to the typed-array loop', () => {
    const s: OptimizerState = {
      params: new Map([['x', new Tensor('float64', new Float64Array(4), [4])]]),
      m: new Map(),
      v: new Map(),
    };
    expect(AdamWKernel.create(s, ['x'])).toBeNull();
  });
});
