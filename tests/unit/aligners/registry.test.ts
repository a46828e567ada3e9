// The aligner registry: every method name resolves to exactly one family and entry; what a
// family's capabilities say is what its implementation does (align refuses the families
// without word links, the CLI refuses options a family does not read); the option schemas'
// defaults parse; the lists the renderer sees come from the registry; and a statistical run
// loads no onnxruntime.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { alignerOf, CLI_FLAGS, entryOf, lexiconOf, REGISTRY, refusal } from '../../../src/main/aligners/registry.ts';
import type { AlignerOptions } from '../../../src/main/aligners/text-aligner.ts';
import { ENCODER_KINDS } from '../../../src/main/models/siamese/sentence-encoders.ts';
import type { AppContext } from '../../../src/main/api/app-context.ts';
import { STATISTICAL_PLANS } from '../../../src/main/align/train-plans.ts';
import {
  BILSTM_DEFAULTS,
  bilstmOptionsSchema,
  ENCODER_FINETUNE_DEFAULTS,
  finetuneOptionsSchema,
  hasContrastiveLoss,
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
import { trainOptionsSchema } from '../../../src/shared/models-api.ts';

const silent = () => ({ progress: () => {}, stop: () => {} });
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
    expect(refusal('bisent2vec', new Set(['device']))).toBe('--device is not an option of bisent2vec (it reads --epochs)');
    expect(refusal('bilstm', new Set(['gold', 'pseudo', 'device']))).toBeNull();
  });

  test("the siamese head sits on every family that gives sentence vectors (a Hugging Face folder: the encoder family's)", () => {
    const kindFamily: Record<(typeof ENCODER_KINDS)[number], MethodFamily> = { bisent2vec: 'bisent2vec', bilstm: 'bilstm', hf: 'encoder' };
    const withVectors = (Object.keys(FAMILIES) as MethodFamily[]).filter((f) => FAMILIES[f].capabilities.sentenceVectors);
    expect(ENCODER_KINDS.map((k) => kindFamily[k]).sort()).toEqual(withVectors.sort());
  });

  test('the trainable families are the Models page methods; only the BiLSTM continues a run', () => {
    expect(TRAINABLE_METHODS).toEqual(['bilstm-ctl', 'bilstm', 'encoder-finetune']);
    expect(TRAINABLE_METHODS.filter((m) => capabilitiesOf(m).continue)).toEqual(['bilstm-ctl', 'bilstm']);
    expect(capabilitiesOf('no-such-method')).toMatchObject({ align: false, train: false });
  });
});

describe('option schemas', () => {
  test('the defaults parse and are what the trainers start from', () => {
    expect(bilstmOptionsSchema.parse({})).toEqual(BILSTM_DEFAULTS);
    expect(BILSTM_DEFAULTS).toMatchObject({ dim: 128, lr: 5e-3, batchSize: 32, ctlWeight: 1, weights: { base: 1, awp: 0, wtr: 0 } });
    expect(finetuneOptionsSchema.parse({})).toEqual(ENCODER_FINETUNE_DEFAULTS);
    expect(ENCODER_FINETUNE_DEFAULTS).toMatchObject({ objectives: ['tr', 'awp', 'wtr'], alpha: 0.8, epochs: 1, lr: 5e-5, batch: 16 });
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

test('`mekong align` on a statistical method loads no onnxruntime', () => {
  const dir = mkdtempSync(join(tmpdir(), 'reg-'));
  const [s, t] = [join(dir, 's'), join(dir, 't')];
  writeFileSync(s, 'a b\nb c\n');
  writeFileSync(t, 'x y\ny z\n');
  const script = `
    const { alignerOf } = await import(${JSON.stringify(new URL('../../../src/main/aligners/registry.ts', import.meta.url).pathname)});
    const { readParallel } = await import(${JSON.stringify(new URL('../../../src/main/align/text-io.ts', import.meta.url).pathname)});
    const { src, tgt } = readParallel(${JSON.stringify(s)}, ${JSON.stringify(t)});
    const links = [...(await (await alignerOf('agree', new Set()))(src, tgt, {}, () => ({ progress() {}, stop() {} })))];
    const loaded = process.report.getReport().sharedObjects.filter((f) => /onnxruntime/.test(f));
    console.log(JSON.stringify({ pairs: links.length, loaded }));`;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
  expect(JSON.parse(out.trim().split('\n').pop()!)).toEqual({ pairs: 2, loaded: [] });
});
