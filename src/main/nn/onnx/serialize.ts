// Graph → ONNX ModelProto bytes. Keeps only the nodes the requested outputs need, names
// the outputs (Identity where a value must be renamed), writes initializers as raw
// little-endian data, and can bake chosen inputs in as initializers (a standalone
// export with weights). Builder-only attributes ('_' prefix) are dropped.
import type { Attr, Graph, Node, Shape, Value } from '../graph.ts';
import { getOp } from '../graph.ts';
import { type DType, ONNX_ELEM, type Tensor } from '../tensor.ts';
import { AttrType, IR_VERSION, ModelProto, OPSET } from './schema.ts';

export interface SerializeOptions {
  /** Inputs to store in the model as initializers instead (e.g. trained weights). */
  bake?: ReadonlyMap<string, Tensor>;
  producer?: string;
}

function tensorProto(name: string, t: Tensor) {
  const d = t.data as ArrayBufferView;
  return {
    name,
    dims: [...t.dims],
    dataType: ONNX_ELEM[t.type as DType],
    rawData: new Uint8Array(d.buffer, d.byteOffset, d.byteLength),
  };
}

function valueInfo(name: string, dtype: DType, shape: Shape) {
  const dim = shape.map((d) => (typeof d === 'number' ? { dimValue: d } : { dimParam: d }));
  return { name, type: { tensorType: { elemType: ONNX_ELEM[dtype], shape: { dim } } } };
}

function attrProto(name: string, a: Attr) {
  if (typeof a === 'number') return { name, type: AttrType.INT, i: a };
  if (typeof a === 'string') return { name, type: AttrType.STRING, s: new TextEncoder().encode(a) };
  if (Array.isArray(a)) return { name, type: AttrType.INTS, ints: a };
  if ('f' in a) return { name, type: AttrType.FLOAT, f: a.f };
  if ('floats' in a) return { name, type: AttrType.FLOATS, floats: a.floats };
  if ('shapes' in a) throw new Error(`attribute ${name}: builder hints are not ONNX`);
  return { name, type: AttrType.TENSOR, t: tensorProto('', a) };
}

function nodeProto(n: Node, i: number) {
  const attribute = Object.entries(n.attrs)
    .filter(([k]) => !k.startsWith('_'))
    .map(([k, v]) => attrProto(k, v));
  return {
    name: `n${i}_${n.op}`,
    opType: getOp(n.op).onnx ?? n.op,
    input: n.inputs.map((v) => v?.name ?? ''),
    output: n.outputs.map((v) => v.name),
    attribute,
  };
}

export function toModelProto(graph: Graph, outputs: Readonly<Record<string, Value>>, o: SerializeOptions = {}): Uint8Array {
  const { nodes, used } = graph.live(Object.values(outputs));
  const node = nodes.map(nodeProto);
  for (const [name, v] of Object.entries(outputs)) {
    if (name !== v.name && (graph.inputs.some((i) => i.name === name) || graph.initializers.has(name))) {
      throw new Error(`output name '${name}' is already an input or constant of the graph`);
    }
    if (name !== v.name) node.push({ name: `out_${name}`, opType: 'Identity', input: [v.name], output: [name], attribute: [] });
  }
  const inputs = graph.inputs.filter((v) => used.has(v));
  const usedNames = new Set([...used].map((v) => v.name));
  const initializer = [...graph.initializers].filter(([n]) => usedNames.has(n)).map(([n, t]) => tensorProto(n, t));
  for (const v of inputs) {
    const t = o.bake?.get(v.name);
    if (t) initializer.push(tensorProto(v.name, t));
  }
  const model = {
    irVersion: IR_VERSION,
    producerName: o.producer ?? 'mekong-nn',
    opsetImport: [{ domain: '', version: OPSET }],
    graph: {
      name: 'mekong',
      node,
      initializer,
      input: inputs.filter((v) => !o.bake?.has(v.name)).map((v) => valueInfo(v.name, v.dtype, v.shape)),
      output: Object.entries(outputs).map(([name, v]) => valueInfo(name, v.dtype, v.shape)),
    },
  };
  return ModelProto.encode(ModelProto.fromObject(model)).finish();
}
