// Static shape helpers shared by the op rules: numpy broadcasting over static and
// symbolic dims, axis normalisation, and typed access to attributes.
import type { Attr, Attrs, Dim, Shape, Value } from '../graph.ts';

export function normAxis(axis: number, rank: number): number {
  const a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank) throw new Error(`axis ${axis} out of range for rank ${rank}`);
  return a;
}

function broadcastDim(a: Dim, b: Dim): Dim {
  if (a === b || b === 1) return a;
  if (a === 1) return b;
  if (typeof a === 'string' && typeof b === 'number') return b;
  if (typeof b === 'string' && typeof a === 'number') return a;
  throw new Error(`cannot broadcast ${a} with ${b}`);
}

/** Numpy-style broadcast of any number of shapes. */
export function broadcast(...shapes: Shape[]): Dim[] {
  const rank = Math.max(...shapes.map((s) => s.length));
  const out: Dim[] = [];
  for (let i = 0; i < rank; i++) {
    let d: Dim = 1;
    for (const s of shapes) {
      const j = s.length - rank + i;
      if (j >= 0) d = broadcastDim(d, s[j]);
    }
    out.push(d);
  }
  return out;
}

export function isStatic(shape: Shape): shape is readonly number[] {
  return shape.every((d) => typeof d === 'number');
}

export function attrInt(attrs: Attrs, name: string, dflt?: number): number {
  const v: Attr | undefined = attrs[name];
  if (v === undefined && dflt !== undefined) return dflt;
  if (typeof v !== 'number') throw new Error(`attribute ${name}: expected an integer`);
  return v;
}

export function attrInts(attrs: Attrs, name: string): number[] | undefined {
  const v = attrs[name];
  if (v === undefined) return undefined;
  if (!Array.isArray(v)) throw new Error(`attribute ${name}: expected integers`);
  return v;
}

export function attrFloat(attrs: Attrs, name: string, dflt: number): number {
  const v = attrs[name];
  if (v === undefined) return dflt;
  if (typeof v === 'object' && 'f' in v) return v.f;
  throw new Error(`attribute ${name}: expected {f}`);
}

/** Reads a constant int64 vector input (axes, shapes, starts) as numbers. */
export function constInts(v: Value | null, what: string): number[] {
  const t = v ? v.graph.initializers.get(v.name) : undefined;
  if (!t || t.type !== 'int64') throw new Error(`${what} must be a constant int64 vector`);
  return Array.from(t.data as BigInt64Array, Number);
}

export function req(v: Value | null, what: string): Value {
  if (!v) throw new Error(`missing input: ${what}`);
  return v;
}
