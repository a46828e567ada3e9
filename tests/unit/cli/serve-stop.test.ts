// `mekong serve` stopped with SIGTERM or SIGINT while a run trains: the run is cancelled and
// waited for (its worker releases its ONNX sessions), marked cancelled, the project closed
// with its WAL copied in, and the process exits 0 — no abort, no run left 'running'.
import Database from 'better-sqlite3';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect, test } from 'vitest';
import { trainableProject } from '../review/fixture.ts';
import { tempDir } from '../helpers/temp-dir.ts';

const dir = tempDir('mekong-stop-');
const token = 'stop-test-token-0123456789';

function serve(path: string): Promise<{ child: ChildProcess; url: string; stderr: () => string }> {
  const child = spawn(process.execPath, ['bin/mekong.js', 'serve', '--project', path, '--token', token], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /Mekong is at (http:\/\/[^/]+)\//.exec(out);
      if (m) resolve({ child, url: m[1], stderr: () => err });
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}): ${err}`)));
  });
}

const exited = (child: ChildProcess): Promise<{ code: number | null; signal: string | null }> =>
  new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));

test.each(['SIGTERM', 'SIGINT'] as const)(
  '%s during a training run: the run ends cancelled and the server exits 0',
  async (signal) => {
    const path = trainableProject(dir);
    const { child, url, stderr } = await serve(path);
    const call = async (channel: string, input: unknown) => {
      const r = await fetch(`${url}/api/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-mekong-token': token },
        body: JSON.stringify(input),
      });
      expect(r.status).toBe(200);
      return (await r.json()) as Record<string, unknown>;
    };
    const { runId } = (await call('models.train', { epochs: 500, dim: 16, batchSize: 8, lr: 1e-2, selfTrainEpochs: 0 })) as {
      runId: number;
    };
    // Training for real: a checkpoint written.
    for (;;) {
      const { models } = (await call('models.list', {})) as { models: { runs: { id: number; checkpoints: unknown[] }[] }[] };
      if (models[0]?.runs.find((r) => r.id === runId)?.checkpoints.length) break;
      await new Promise((r) => setTimeout(r, 100));
    }
    const end = exited(child);
    child.kill(signal);
    expect(await end).toEqual({ code: 0, signal: null });
    expect(stderr()).not.toMatch(/terminate called|Napi::Error|Error/);
    // Before anything opens the file again (a reader of a WAL-mode file makes a -wal of its own).
    expect(existsSync(`${path}-wal`)).toBe(false);
    const db = new Database(path, { readonly: true });
    expect(db.prepare('SELECT state, error FROM training_runs WHERE id = ?').get(runId)).toEqual({ state: 'cancelled', error: null });
    db.close();
  },
  180_000,
);
