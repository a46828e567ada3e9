// The install script says "ready" for a native part only when its file is in place: an
// installer that exits 0 without fetching (onnxruntime-node's under npm with an
// onnxruntime-node-install setting in npm's config) must read as "not installed".
import { expect, test } from 'vitest';
// @ts-expect-error plain JavaScript install script, without types
import { stepReport } from '../../../scripts/postinstall.js';

const report = stepReport as (label: string, status: number | null, present: boolean, error?: Error) => string;

test('"ready" only when the file is there', () => {
  expect(report('onnxruntime CUDA provider', 0, true)).toBe('mekong: onnxruntime CUDA provider: ready');
  expect(report('onnxruntime CUDA provider', 0, false)).toMatch(
    /^mekong: onnxruntime CUDA provider: not installed \(the installer fetched nothing: /,
  );
  expect(report('Electron binary', 1, false)).toMatch(/not installed \(the installer exited with 1: offline/);
  expect(report('Electron binary', null, false, new Error('spawnSync node ETIMEDOUT'))).toMatch(
    /not installed \(spawnSync node ETIMEDOUT: /,
  );
});
