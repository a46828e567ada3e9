// Execution-provider choice at run time. 'auto' tries, in order, the providers the
// platform can have (CUDA on Linux/Windows, DirectML on Windows, CoreML on macOS; WebGPU when asked for)
// and falls back to CPU; a forced provider falls back to CPU too. A provider that failed
// once is not tried again in this process. One log line names the provider in use
// (per requested setting). The setting comes from the caller or MEKONG_NN_DEVICE.
// CUDA is only tried when its provider library is installed beside onnxruntime's binding
// (it is fetched separately, see scripts/postinstall.js): asking onnxruntime for a missing
// CUDA provider can abort the whole process from native code instead of throwing.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import ort from 'onnxruntime-node';
import { defaultCpuThreads } from './cpu-threads.ts';
import { quietOnnxRuntime } from './ort-environment.ts';

import { DEVICE_SETTINGS, type DeviceName, type DeviceSetting } from '../../shared/device-settings.ts';
import { UserError } from '../errors.ts';

export type { DeviceName, DeviceSetting };

export function parseDevice(s: string | undefined): DeviceSetting {
  if (!s) return 'auto';
  if (!(DEVICE_SETTINGS as readonly string[]).includes(s))
    throw new UserError(`unknown device '${s}' (one of ${DEVICE_SETTINGS.join(', ')})`);
  return s as DeviceSetting;
}

/** The setting in force: the caller's, else MEKONG_NN_DEVICE, else 'auto'. */
export function deviceSetting(given?: DeviceSetting): DeviceSetting {
  return given ?? parseDevice(process.env.MEKONG_NN_DEVICE);
}

/**
 * Providers to try for a setting, best first; always ends with CPU. 'auto' tries the
 * platform's native GPU providers only: WebGPU must be asked for (--device webgpu), since on
 * a machine without a GPU adapter its Dawn runtime prints a native error trace to stderr
 * before failing (seen here on every run), which would greet every user of 'auto'.
 */
export function preferenceOrder(setting: DeviceSetting, platform: NodeJS.Platform = process.platform): DeviceName[] {
  if (setting === 'cpu') return ['cpu'];
  if (setting !== 'auto') return [setting, 'cpu'];
  const byPlatform: Partial<Record<NodeJS.Platform, DeviceName[]>> = {
    linux: ['cuda'],
    win32: ['cuda', 'dml'],
    darwin: ['coreml'],
  };
  return [...(byPlatform[platform] ?? []), 'cpu'];
}

export interface OpenOptions {
  device?: DeviceSetting;
  /** intra-op threads (default: one per physical core, cpu-threads.ts) */
  threads?: number;
  /** Let idle intra-op threads spin (ORT default); off shares a busy machine better. */
  spin?: boolean;
  /** Receives the one line naming the provider (default: console.info). */
  log?: (line: string) => void;
}

const failed = new Map<DeviceName, string>();

/** Why a provider cannot work here without asking onnxruntime, or null. */
function missingLibrary(device: DeviceName): string | null {
  if (device !== 'cuda') return null;
  const pkg = dirname(createRequire(import.meta.url).resolve('onnxruntime-node/package.json'));
  const file = process.platform === 'win32' ? 'onnxruntime_providers_cuda.dll' : 'libonnxruntime_providers_cuda.so';
  const found = existsSync(join(pkg, 'bin', 'napi-v6', process.platform, process.arch, file));
  return found ? null : 'CUDA provider library not installed (`npm run setup:native` fetches it)';
}
const announced = new Set<string>();

/** The session options `openSession` uses for `device`. */
export function sessionOptions(device: DeviceName, o: OpenOptions): ort.InferenceSession.SessionOptions {
  return {
    executionProviders: [device],
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
    // Neither ORT's CPU arena nor its memory-pattern buffers: every length bucket has its own
    // session, and each kept its peak allocations for the whole run. Without them training
    // peaks at about half the memory in the same time, with the same AER (docs/experiments.md).
    enableCpuMemArena: false,
    enableMemPattern: false,
    intraOpNumThreads: o.threads || defaultCpuThreads(),
    interOpNumThreads: 1,
    extra: { session: { intra_op: { allow_spinning: o.spin ? '1' : '0' } } },
  };
}

/** Opens an ONNX model on the best available provider. */
export async function openSession(model: Uint8Array, o: OpenOptions = {}): Promise<{ session: ort.InferenceSession; device: DeviceName }> {
  const setting = deviceSetting(o.device);
  const skipped: string[] = [];
  for (const device of preferenceOrder(setting)) {
    const why = failed.get(device) ?? missingLibrary(device);
    if (why) {
      failed.set(device, why);
      skipped.push(`${device}: ${why}`);
      continue;
    }
    try {
      quietOnnxRuntime();
      const session = await ort.InferenceSession.create(model, sessionOptions(device, o));
      announce(setting, device, skipped, o.log);
      return { session, device };
    } catch (e) {
      if (device === 'cpu') throw e;
      failed.set(device, firstLine(e));
      skipped.push(`${device}: ${firstLine(e)}`);
    }
  }
  throw new Error('unreachable: CPU is always tried');
}

function firstLine(e: unknown): string {
  return String(e instanceof Error ? e.message : e)
    .split('\n')[0]
    .slice(0, 160);
}

function announce(setting: DeviceSetting, device: DeviceName, skipped: string[], log = console.info): void {
  const key = `${setting}->${device}`;
  if (announced.has(key)) return;
  announced.add(key);
  const why = skipped.length ? `; unavailable: ${skipped.join('; ')}` : '';
  log(`nn: execution provider ${device} (requested ${setting}${why})`);
}
