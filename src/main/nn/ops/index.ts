// Every primitive op of nn/ (importing this registers them all).
export * from './elementwise.ts';
export * from './reduce.ts';
export * from './matmul.ts';
export * from './shape.ts';
export * from './select.ts';
export * from './random.ts';
export * from './lstm-sequence.ts';
export { unbroadcast, zerosLike } from './grad-helpers.ts';
export * from './composite.ts';
