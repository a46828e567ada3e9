// A trained BiLSTM aligner on disk: the model folder format (config.json + model.safetensors,
// nn/model-folder.ts) round-trips the model exactly, and a folder saved in the earlier
// format (model.json) still loads, so the checkpoints in users' projects stay usable.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { loadNeuralModel, saveNeuralModel } from '../../../src/main/models/bilstm/saved.ts';
import { trainNeural } from '../../../src/main/models/bilstm/train.ts';
import { tempDir } from '../helpers/temp-dir.ts';
import { syntheticCorpus } from './synthetic.ts';

const dir = tempDir('mekong-saved-');

test('config.json + model.safetensors round trip; the earlier model.json folders load too', async () => {
  const c = syntheticCorpus(24, 8);
  const model = await trainNeural({ src: c.src, tgt: c.tgt }, { epochs: 1, dim: 16, batchSize: 8, device: 'cpu' });
  const folder = join(dir, 'm');
  saveNeuralModel(folder, model);
  expect(existsSync(join(folder, 'config.json')) && existsSync(join(folder, 'model.safetensors'))).toBe(true);
  const config = JSON.parse(readFileSync(join(folder, 'config.json'), 'utf8'));
  expect(config).toMatchObject({ format: 'mekong-neural-aligner/2', model_type: 'mekong-bilstm', config: { dim: 16 } });
  expect(config.config.device).toBeUndefined();
  const back = loadNeuralModel(folder);
  expect(back.vocab.src.ids).toEqual(model.vocab.src.ids);
  for (const [name, t] of model.params)
    expect(Array.from(back.params.get(name)!.data as Float32Array)).toEqual(Array.from(t.data as Float32Array));

  // The earlier layout: model.json with format 1 and no model_type.
  const { model_type: _type, ...rest } = config;
  writeFileSync(join(folder, 'model.json'), JSON.stringify({ ...rest, format: 'mekong-neural-aligner/1' }));
  renameSync(join(folder, 'config.json'), join(folder, 'gone.json'));
  const legacy = loadNeuralModel(folder);
  expect(legacy.dims).toEqual(model.dims);
  expect(() => loadNeuralModel(join(dir, 'nothing-here'))).toThrow(/config\.json: not a model folder's config/);
}, 60_000);
