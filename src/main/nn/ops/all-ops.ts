// Every primitive op of nn/ (importing this registers them all).
export * from './core.ts';
export * from './matmul.ts';
export * from './select.ts';
export * from './random.ts';
export * from './lstm-sequence.ts';
export * from './composite.ts';
