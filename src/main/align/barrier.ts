// A reusable barrier for worker threads on a SharedArrayBuffer: state[0] counts arrivals,
// state[1] is the generation, bumped by the last thread to arrive. Workers only: the main
// thread may not block in Atomics.wait.

export function newBarrierState(): Int32Array {
  return new Int32Array(new SharedArrayBuffer(8));
}

export function barrierWait(state: Int32Array, parties: number): void {
  const gen = Atomics.load(state, 1);
  if (Atomics.add(state, 0, 1) === parties - 1) {
    Atomics.store(state, 0, 0);
    Atomics.add(state, 1, 1);
    Atomics.notify(state, 1);
    return;
  }
  while (Atomics.load(state, 1) === gen) Atomics.wait(state, 1, gen);
}
