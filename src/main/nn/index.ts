// nn/: the public surface other modules build on — graph builder and ops, autodiff,
// blocks and losses, optimiser, the training step, the model folder format and export, devices.
export { Graph, Value, type Dim, type Shape, type Param } from './graph.ts';
export * as op from './ops/all-ops.ts';
export { grad } from './autodiff.ts';
export { Program, type Feeds } from './session.ts';
export { Tensor, floats, int64s, zeros, floatData, cloneTensor, type DType, type FloatDType } from './tensor.ts';
export { Rng, glorotUniform, normalInit, constantInit } from './init.ts';
export { Scope } from './blocks/scope.ts';
export { linear, embedding, layerNorm, maybeDropout } from './blocks/layers.ts';
export { lstm, biLstm, lstmCell } from './blocks/lstm.ts';
export { multiHeadAttention, transformerEncoderLayer } from './blocks/attention.ts';
export { meanPool, maxPool, clsPool } from './blocks/pooling.ts';
export { infoNce, marginContrastive, crossEntropy, tableCrossEntropy } from './blocks/losses.ts';
export { type AdamWConfig, adamwUpdate, appendAdamW } from './optim/adamw.ts';
export { makeSchedule, type Schedule, type ScheduleConfig } from './optim/schedule.ts';
export { Trainer, type TrainerOptions, type TrainState } from './trainer.ts';
export { saveModelFolder, loadModelFolder, exportOnnx, type FolderFamily, type FolderContent, type ModelFolder } from './model-folder.ts';
export { openSession, parseDevice, preferenceOrder, type DeviceName, type DeviceSetting } from './devices.ts';
