// A process that runs an ONNX model leaves nothing in /tmp: onnxruntime's telemetry client
// (an empty mat-debug-<pid>.log per process, and /tmp/.ses) is off, whether the first session
// opens in the main thread or in a worker; a user's own ORT_DISABLE_TELEMETRY is kept.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { expect, test } from 'vitest';

/**
 * Runs the fixture in a fresh process without the test runner's ORT_DISABLE_TELEMETRY and CI
 * (onnxruntime starts no telemetry client at all where CI is set, as on CI's machine, which
 * would make the last test pass or fail for the wrong reason); returns that process's pid.
 */
function openIn(where: 'main' | 'worker', env: Record<string, string | undefined> = {}) {
  const { ORT_DISABLE_TELEMETRY: _, CI: __, ...inherited } = process.env;
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'tests/unit/nn/fixtures/open-session.ts', where], {
    encoding: 'utf8',
    env: { ...inherited, ...env },
  });
  expect(r.status, r.stderr).toBe(0);
  return Number(/^pid (\d+)$/m.exec(r.stdout)![1]);
}

test.each(['main', 'worker'] as const)('no mat-debug log after a session opened in the %s thread', (where) => {
  expect(existsSync(`/tmp/mat-debug-${openIn(where)}.log`)).toBe(false);
});

test("the user's own setting is kept: ORT_DISABLE_TELEMETRY=0 lets onnxruntime write its log (so the test above can fail)", () => {
  const pid = openIn('main', { ORT_DISABLE_TELEMETRY: '0' });
  const log = `/tmp/mat-debug-${pid}.log`;
  expect(existsSync(log)).toBe(true);
  rmSync(log);
});
