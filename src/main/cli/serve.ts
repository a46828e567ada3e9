// `mekong serve`: browser mode — the app's UI and API on a 127.0.0.1 URL with a per-run token;
// SIGINT or SIGTERM cancel its jobs, wait for them, close the project and exit 0.
import { InvalidArgumentError, type Command } from 'commander';
import { createContext } from '../api/create-context.ts';
import { dispatch } from '../api/dispatch.ts';
import { startServer } from '../server.ts';
import { UserError } from '../errors.ts';

/** How long a stop waits for cancelled jobs to end. */
const STOP_LIMIT_MS = 30_000;

/** A TCP port number 0–65535 (0: any free one), or a one-line usage error. */
function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new InvalidArgumentError(`expected a port number from 0 to 65535, got "${v}"`);
  return n;
}

/** A token a URL and a header can carry unchanged, long enough not to be guessed. */
function parseToken(v: string): string {
  if (!/^[\w-]{20,200}$/.test(v)) throw new InvalidArgumentError('expected 20 to 200 letters, digits, - or _');
  return v;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the Mekong UI in a browser at a printed http://127.0.0.1 URL')
    .option('--port <n>', 'port (default: any free one)', parsePort)
    .option('--project <file>', 'open this project')
    .option('--sample', 'open the bundled Lao–Thai sample project')
    .option('--annotator <name>', 'your name on every edit (default: the login name)')
    .option(
      '--token <token>',
      'a fixed access token (20+ letters, digits, - or _), so that pages left open reconnect after a restart (with --port)',
      parseToken,
    )
    .action(async (o: { port?: number; project?: string; sample?: boolean; annotator?: string; token?: string }) => {
      const ctx = createContext('browser', o.annotator);
      const opened = o.sample
        ? await dispatch(ctx, 'project.openSample', {})
        : o.project
          ? await dispatch(ctx, 'project.open', { path: o.project })
          : null;
      if (opened && !opened.ok) throw new UserError(opened.error.error);
      const server = await startServer(ctx, { port: o.port, token: o.token });
      console.log(`Mekong is at ${server.url}`);
      // A clean stop: running jobs are cancelled and waited for (a training run ends marked
      // cancelled, its worker releases its ONNX sessions; exiting under them aborted the
      // process), then the project closes, which copies the WAL into the file.
      const stop = async () => {
        const ended = await ctx.jobs.cancelAll(STOP_LIMIT_MS);
        if (!ended) console.error(`mekong: jobs still running after ${STOP_LIMIT_MS / 1000} s; stopping anyway`);
        await server.close();
        ctx.store?.close();
        process.exit(ended ? 0 : 1);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
