// A compiled graph: serialises the requested outputs of a Graph to ONNX, opens it on the
// chosen device, and runs it on named tensors. Feeds the model does not read (pruned
// inputs) are ignored; a missing feed is an error naming it.
import type ort from 'onnxruntime-node';
import { type DeviceName, type OpenOptions, openSession } from './devices.ts';
import type { Graph, Value } from './graph.ts';
import { type SerializeOptions, toModelProto } from './onnx/serialize.ts';
import type { Tensor } from './tensor.ts';

export type Feeds = Readonly<Record<string, Tensor>>;
export type CompileOptions = SerializeOptions & OpenOptions;

export class Program {
  private constructor(
    private readonly session: ort.InferenceSession,
    readonly device: DeviceName,
    readonly model: Uint8Array,
  ) {}

  static async compile(graph: Graph, outputs: Readonly<Record<string, Value>>, o: CompileOptions = {}): Promise<Program> {
    const model = toModelProto(graph, outputs, o);
    const { session, device } = await openSession(model, o);
    return new Program(session, device, model);
  }

  get inputNames(): readonly string[] {
    return this.session.inputNames;
  }

  async run(feeds: Feeds): Promise<Record<string, Tensor>> {
    const used: Record<string, Tensor> = {};
    for (const name of this.session.inputNames) {
      const t = feeds[name];
      if (!t) throw new Error(`run: missing feed '${name}'`);
      used[name] = t;
    }
    return (await this.session.run(used)) as Record<string, Tensor>;
  }

  async release(): Promise<void> {
    await this.session.release();
  }
}
