// The aligner registry: every method name resolves to exactly one family and entry; what a
// family's capabilities say is what its implementation does (align refuses the families
// without word links, the CLI refuses options a family does not read, the app's jobs find
// their family's implementation there); the siamese head sits on the families with sentence
// vectors; each option schema parses to the defaults the model code used before; the lists
// the renderer sees come from the registry; and a statistical run loads neither onnxruntime
// nor zod (the family defaults it reads are in shared/aligner-defaults.ts, apart from the schemas).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import {
  alignerOf,
  alignJobOf,
  CLI_FLAGS,
  entryOf,
  lexiconOf,
  REGISTRY,
  refusal,
  runJobsOf,
  SIAMESE_HEAD,
  sentenceEncoderOf,
} from '../../../src/main/aligners/registry.ts';
import type { AlignerOptions, ProgressDisplay } from '../../../src/main/aligners/text-aligner.ts';
import { silentContext } from '../../../src/main/jobs/job-context.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { STATISTICAL_PLANS } from '../../../src/main/align/train-plans.ts';
import {
  BILSTM_DEFAULTS,
  BISENT2VEC_DEFAULTS,
  ENCODER_DEFAULTS,
  ENCODER_FINETUNE_DEFAULTS,
  SIAMESE_DEFAULTS,
  STATISTICAL_DEFAULTS,
} from '../../../src/shared/aligner-defaults.ts';
import {
  bilstmOptionsSchema,
  bisent2vecOptionsSchema,
  encoderOptionsSchema,
  finetuneOptionsSchema,
  hasContrastiveLoss,
  siameseOptionsSchema,
  statisticalOptionsSchema,
} from '../../../src/shared/aligner-options.ts';
import {
  ALIGN_JOB_METHODS,
  capabilitiesOf,
  ENCODER_ALIGN_METHODS,
  FAMILIES,
  METHODS,
  type MethodFamily,
  TRAINABLE_METHODS,
} from '../../../src/shared/methods.ts';
import { channels } from '../../../src/shared/api.ts';
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';

const silent: ProgressDisplay = (_label, work) => work(silentContext());
const none = new Set<keyof AlignerOptions>();

describe('names', () => {
  test('every name is one method of one family, and each family has an entry', () => {
    const names = METHODS.map((m) => m.name);
    expect(new Set(names).size).toBe(names.length);
    for (const m of METHODS) {
      expect(FAMILIES[m.family]).toBeDefined();
      expect(entryOf(m.name).entry.family).toBe(m.family);
    }
    expect(Object.keys(REGISTRY).sort()).toEqual(Object.keys(FAMILIES).sort());
    expect(() => entryOf('constructor')).toThrow(/unknown method "constructor" \(one of: agree, ibm1,/);
    expect(entryOf(undefined).method).toBe('agree');
  });

  test("the statistical names are the statistical family's training plans", () => {
    const statistical = METHODS.filter((m) => m.family === 'statistical').map((m) => m.name);
    expect(Object.keys(STATISTICAL_PLANS)).toEqual(statistical);
  });

  test('every option a family reads is an option of align or lexicon', () => {
    for (const e of Object.values(REGISTRY)) for (const key of e.reads) expect(CLI_FLAGS[key]).toMatch(/^--/);
  });
});

describe('capabilities match the implementations', () => {
  const src = [
    ['a', 'b'],
    ['b', 'c'],
    ['a', 'c'],
  ];
  const tgt = [
    ['x', 'y'],
    ['y', 'z'],
    ['x', 'z'],
  ];

  test('align refuses the families without word links, each in its own words', async () => {
    await expect(alignerOf('bisent2vec', none)).rejects.toThrow(
      /^bisent2vec learns word and sentence vectors, not word links: align with agree, /,
    );
    await expect(alignerOf('encoder-finetune', none)).rejects.toThrow(
      /encoder-finetune trains an encoder rather than aligning: run `mekong finetune/,
    );
    await expect(lexiconOf('awesome', none)).rejects.toThrow('lexicon: awesome does not learn a lexicon');
    for (const m of METHODS) {
      const c = capabilitiesOf(m.name);
      if (!c.align) await expect(alignerOf(m.name, none)).rejects.toThrow();
      if (!c.lexicon) await expect(lexiconOf(m.name, none)).rejects.toThrow();
    }
  });

  test('a statistical method aligns and learns a lexicon', async () => {
    const links = [...(await (await alignerOf('ibm1', none))(src, tgt, {}, silent))];
    expect(links).toHaveLength(3);
    const lexicon = await (await lexiconOf('ibm1', none))(src, tgt, {}, silent);
    expect(lexicon.length).toBeGreaterThan(0);
  });

  test('an option a family does not read is refused in one line naming who reads it', () => {
    expect(refusal('agree', new Set(['dictUse']))).toBe('--dict-use is for the neural methods (bilstm-ctl, bilstm)');
    expect(refusal('agree', new Set(['encoder']))).toMatch(/^--encoder is for the encoder methods \(simalign-argmax, /);
    expect(refusal('bilstm-ctl', new Set(['byCharacter']))).toBe('--by-character is for the statistical methods (agree, ibm1, ibm2, hmm)');
    expect(refusal('awesome', new Set(['epochs']))).toBe(
      '--epochs is not read by awesome, which aligns with a pretrained encoder without training',
    );
    expect(refusal('bisent2vec', new Set(['device']))).toBe('--device is not an option of bisent2vec (it reads --epochs and --extraction)');
    expect(refusal('bilstm', new Set(['gold', 'pseudo', 'device']))).toBeNull();
  });

  test('the siamese head sits on every family that gives sentence vectors, looked up by the kind of its spec', async () => {
    const withVectors = (Object.keys(FAMILIES) as MethodFamily[]).filter((f) => FAMILIES[f].capabilities.sentenceVectors);
    expect(Object.keys(SIAMESE_HEAD.encoders).sort()).toEqual(withVectors.sort());
    expect(sentenceEncoderOf('hf:/m')).toEqual({ family: 'encoder', dir: '/m' });
    expect(sentenceEncoderOf('bilstm:a:b')).toEqual({ family: 'bilstm', dir: 'a:b' });
    for (const spec of ['statistical:/m', 'encoder:/m', 'bisent2vec:', 'x'])
      expect(() => sentenceEncoderOf(spec)).toThrow(/^--encoder must be bisent2vec:DIR, bilstm:DIR, hf:DIR; got/);
    const head = await SIAMESE_HEAD.load();
    expect(head.options.parse({})).toEqual(SIAMESE_HEAD.defaults);
    expect(typeof head.openEncoder).toBe('function');
  });

  test("the app's jobs find their family's implementation in the registry", async () => {
    for (const m of METHODS) {
      const c = capabilitiesOf(m.name);
      if (c.align && !c.train) expect(typeof (await alignJobOf(m.name)).align).toBe('function');
      else await expect(alignJobOf(m.name)).rejects.toThrow(`${m.name} has no Align job`);
      if (c.train) expect(Object.keys(await runJobsOf(m.name)).sort()).toEqual(['alignCheckpoint', 'train']);
      else await expect(runJobsOf(m.name)).rejects.toThrow(`${m.name} does not train runs`);
    }
    expect(FAMILIES.finetune.alignsWith).toBe('awesome');
    expect(capabilitiesOf(FAMILIES.finetune.alignsWith)).toMatchObject({ align: true, pretrainedEncoder: true, train: false });
  });

  test('the trainable families are the Models page methods; only the BiLSTM continues a run', () => {
    expect(TRAINABLE_METHODS).toEqual(['bilstm-ctl', 'bilstm', 'encoder-finetune']);
    expect(TRAINABLE_METHODS.filter((m) => capabilitiesOf(m).continue)).toEqual(['bilstm-ctl', 'bilstm']);
    expect(capabilitiesOf('no-such-method')).toMatchObject({ align: false, train: false });
  });
});

describe('option schemas', () => {
  test('each schema parses to its defaults, the values the model code used before', () => {
    expect(bilstmOptionsSchema.parse({})).toEqual(BILSTM_DEFAULTS);
    expect(BILSTM_DEFAULTS).toMatchObject({ dim: 128, lr: 5e-3, batchSize: 32, ctlWeight: 1, weights: { base: 1, awp: 0, wtr: 0 } });
    expect(finetuneOptionsSchema.parse({})).toEqual(ENCODER_FINETUNE_DEFAULTS);
    expect(ENCODER_FINETUNE_DEFAULTS).toMatchObject({ objectives: ['tr', 'awp', 'wtr'], alpha: 0.8, epochs: 1, lr: 5e-5, batch: 16 });
    // `mekong finetune`'s own settings (the Train… form leaves them at these)
    expect(ENCODER_FINETUNE_DEFAULTS).toMatchObject({
      sentence: 'cls',
      temperature: 0.05,
      rtlLayers: 2,
      rtlDirection: 'src-to-tgt',
      awpMasks: 4,
      supervisionMethod: 'awesome',
      threshold: 0.9,
      freezeEmbeddings: false,
      seed: 1,
    });
    expect(finetuneOptionsSchema.parse({}).layer).toBeUndefined();
    expect(() => finetuneOptionsSchema.parse({ supervisionMethod: 'agree' })).toThrow();
    expect(statisticalOptionsSchema.parse({})).toEqual(STATISTICAL_DEFAULTS);
    expect(STATISTICAL_DEFAULTS).toEqual({ sym: 'gdfa', threshold: 0.5, lowercase: false, byCharacter: false, identity: 1 });
    expect(encoderOptionsSchema.parse({})).toEqual(ENCODER_DEFAULTS);
    expect(ENCODER_DEFAULTS).toEqual({ threshold: 1e-3, pooling: 'mean', tokenType: 'word', nullAlign: 1, distortion: 0 });
    expect(bisent2vecOptionsSchema.parse({})).toEqual(BISENT2VEC_DEFAULTS);
    expect(BISENT2VEC_DEFAULTS).toEqual({
      dim: 100,
      epochs: 5,
      lr: 0.2,
      negatives: 10,
      minCount: 1,
      bigrams: false,
      charN: 4,
      subsample: 1e-4,
      seed: 1,
      tfidf: false,
      lexicalWeight: 0.1,
    });
    expect(siameseOptionsSchema.parse({})).toEqual(SIAMESE_DEFAULTS);
    expect(SIAMESE_DEFAULTS).toEqual({ dropout: 0.2, margin: 1, lr: 1e-4, epochs: 10, batch: 64, seed: 1, negatives: 'hard' });
  });

  test("the API's contracts take the schemas' fields", () => {
    const align = channels['align.start'];
    expect(align.parse({ method: 'agree' }).sym).toBe(STATISTICAL_DEFAULTS.sym);
    expect(align.safeParse({ method: 'awesome', layer: 201 }).success).toBe(false);
    expect(channels['models.realign'].parse({ runId: 1 }).sym).toBe(STATISTICAL_DEFAULTS.sym);
  });

  test("the Models page's contract takes the schemas' limits, without their defaults", () => {
    const o = trainOptionsSchema.parse({});
    expect(o.method).toBe('bilstm-ctl');
    expect(o.dim).toBeUndefined();
    expect(o.checkpointEvery).toBe(BILSTM_DEFAULTS.checkpointEvery);
    expect(trainOptionsSchema.safeParse({ dim: 15 }).success).toBe(false);
    expect(trainOptionsSchema.safeParse({ finetune: { batch: 0 } }).success).toBe(false);
  });

  test('bilstm fixes λ at 0, bilstm-ctl leaves it to the options', () => {
    expect([hasContrastiveLoss('bilstm-ctl'), hasContrastiveLoss('bilstm')]).toEqual([true, false]);
  });
});

test('the lists the renderer sees come from the registry', async () => {
  const { handlers } = await import('../../../src/main/api/handlers.ts');
  const info = await handlers['app.info'](
    {
      version: 'test',
      mode: 'browser',
      annotator: 'a',
      store: null,
      dataDir: mkdtempSync(join(tmpdir(), 'reg-')),
    } as unknown as AppContext,
    {},
  );
  expect(info.alignMethods).toEqual(ALIGN_JOB_METHODS);
  expect(info.alignMethods).toEqual(['agree', 'ibm1', 'ibm2', 'hmm']);
  expect(info.encoderMethods).toEqual(ENCODER_ALIGN_METHODS);
  const byFamily = (f: MethodFamily) => METHODS.filter((m) => m.family === f).map((m) => m.name);
  expect(info.encoderMethods).toEqual(byFamily('encoder'));
});

test('`mekong align` on a statistical method loads neither onnxruntime, zod nor the model-folder code (protobufjs)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reg-'));
  const [s, t] = [join(dir, 's'), join(dir, 't')];
  writeFileSync(s, 'a b\nb c\n');
  writeFileSync(t, 'x y\ny z\n');
  const src = (path: string) => JSON.stringify(new URL(`../../../src/main/${path}`, import.meta.url).pathname);
  // a resolve hook (on the loader's thread) reports every package of the two resolved, whatever imports it
  const hook = `let port;
    export function initialize(d) { port = d.port; }
    export async function resolve(s, c, next) {
      const r = await next(s, c);
      const m = /node_modules\\/(zod|onnxruntime[^/]*|protobufjs)\\//.exec(r.url);
      if (m) port.postMessage(m[1]);
      return r;
    }`;
  const script = `
    import { register } from 'node:module';
    import { MessageChannel } from 'node:worker_threads';
    const { port1, port2 } = new MessageChannel();
    const packages = new Set();
    port1.on('message', (p) => packages.add(p));
    port1.unref();
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}), { data: { port: port2 }, transferList: [port2] });
    const { Command } = await import('commander');
    (await import(${src('cli/align.ts')})).register(new Command());
    const { alignerOf } = await import(${src('aligners/registry.ts')});
    const { readParallel } = await import(${src('align/text-io.ts')});
    const { src, tgt } = readParallel(${JSON.stringify(s)}, ${JSON.stringify(t)});
    const links = [...(await (await alignerOf('agree', new Set()))(src, tgt, {}, (label, work) => work({ progress() {}, signal: new AbortController().signal })))];
    await new Promise((r) => setTimeout(r, 200));
    const loaded = process.report.getReport().sharedObjects.filter((f) => /onnxruntime/.test(f));
    // CommonJS loads (nn/tensor.ts takes onnxruntime-common through createRequire) pass no resolve hook
    const { createRequire } = await import('node:module');
    for (const f of Object.keys(createRequire(import.meta.url).cache)) {
      const m = /node_modules\\/(onnxruntime[^/]*|protobufjs)\\//.exec(f);
      if (m) packages.add(m[1]);
    }
    console.log(JSON.stringify({ pairs: links.length, loaded, packages: [...packages] }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ pairs: 2, loaded: [], packages: [] });
});
