// The devices an ONNX session can run on, as the CLI (--device), the Train form and
// MEKONG_NN_DEVICE name them: 'auto' tries the platform's accelerators and falls back to the
// CPU (nn/devices.ts decides and records which one ran).
export const DEVICE_SETTINGS = ['auto', 'cuda', 'dml', 'coreml', 'webgpu', 'cpu'] as const;

export type DeviceSetting = (typeof DEVICE_SETTINGS)[number];
export type DeviceName = Exclude<DeviceSetting, 'auto'>;

export const DEVICE_LABELS: Readonly<Record<DeviceSetting, string>> = {
  auto: 'Auto (best available)',
  cuda: 'CUDA (NVIDIA GPU)',
  dml: 'DirectML (Windows GPU)',
  coreml: 'CoreML (Apple)',
  webgpu: 'WebGPU',
  cpu: 'CPU',
};

/** What actually ran a training run: the setting asked for and the provider that opened. */
export interface DeviceUse {
  requested: DeviceSetting;
  used: DeviceName;
}
