// `mekong serve`: browser mode — the app's UI and API on a 127.0.0.1 URL with a per-run token.
import { InvalidArgumentError, type Command } from 'commander';
import { createContext } from '../api/create-context.ts';
import { dispatch } from '../api/dispatch.ts';
import { startServer } from '../server.ts';
import { UserError } from '../errors.ts';

/** A TCP port number 0–65535 (0: any free one), or a one-line usage error. */
function parsePort(v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || n > 65535) throw new InvalidArgumentError(`expected a port number from 0 to 65535, got "${v}"`);
  return n;
}

export function register(program: Command): void {
  program.command('serve')
    .description('serve the Mekong UI in a browser at a printed http://127.0.0.1 URL')
    .option('--port <n>', 'port (default: any free one)', parsePort)
    .option('--project <file>', 'open this project')
    .option('--sample', 'open the bundled Lao–Thai sample project')
    .option('--annotator <name>', 'your name on every edit (default: the login name)')
    .action(async (o: { port?: number; project?: string; sample?: boolean; annotator?: string }) => {
      const ctx = createContext('browser', o.annotator);
      const opened = o.sample ? await dispatch(ctx, 'project.openSample', {})
        : o.project ? await dispatch(ctx, 'project.open', { path: o.project }) : null;
      if (opened && !opened.ok) throw new UserError(opened.error.error);
      const server = await startServer(ctx, { port: o.port });
      console.log(`Mekong is at ${server.url}`);
      const stop = async () => {
        await server.close();
        ctx.store?.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
}
