// `mekong serve`: browser mode — the app's UI and API on a 127.0.0.1 URL with a per-run token;
// SIGINT or SIGTERM cancel its jobs, wait for them, close the project and exit 0.
// `mekong serve --team --project P`: the project's accounts (`mekong user`) log in instead; only
// then may --host name an address other than loopback, with --tls-cert/--tls-key or --behind-proxy.
import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { createContext } from '../api/create-context.ts';
import { dispatch } from '../api/dispatch.ts';
import { exposureError, startServer, type ServerOptions } from '../server.ts';
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

interface ServeOptions {
  port?: number;
  project?: string;
  sample?: boolean;
  annotator?: string;
  token?: string;
  team?: boolean;
  host?: string;
  tlsCert?: string;
  tlsKey?: string;
  behindProxy?: boolean;
  origin?: string;
}

/** The server's options from the command line, or a one-line error for a combination that does not make sense or is unsafe. */
function serverOptions(o: ServeOptions): ServerOptions {
  if (o.team) {
    if (!o.project) throw new UserError('--team needs --project: the project whose accounts log in');
    if (o.sample || o.token || o.annotator)
      throw new UserError('--team serves accounts: --sample, --token and --annotator are for the single-user server');
  } else if (o.tlsCert || o.tlsKey || o.behindProxy || o.origin) {
    throw new UserError('--tls-cert, --tls-key, --behind-proxy and --origin are for a team server (--team)');
  }
  if (!o.tlsCert !== !o.tlsKey) throw new UserError('--tls-cert and --tls-key go together');
  if (o.tlsCert && o.behindProxy) throw new UserError('--tls-cert and --behind-proxy exclude each other: the proxy holds the certificate');
  if (o.origin && !/^https?:\/\/[^/]+\/?$/.test(o.origin))
    throw new UserError(`--origin: expected scheme://host[:port], got "${o.origin}"`);
  const options: ServerOptions = {
    port: o.port,
    token: o.token,
    host: o.host,
    team: o.team ? { projectPath: o.project! } : undefined,
    tls: o.tlsCert && o.tlsKey ? { cert: readFileSync(o.tlsCert), key: readFileSync(o.tlsKey) } : undefined,
    behindProxy: o.behindProxy,
    origin: o.origin,
  };
  const unsafe = exposureError(options);
  if (unsafe) throw new UserError(unsafe);
  return options;
}

export function register(program: Command): void {
  program
    .command('serve')
    .description('serve the Mekong UI in a browser at a printed http://127.0.0.1 URL (--team: to a team, with accounts)')
    .option('--port <n>', 'port (default: any free one)', parsePort)
    .option('--project <file>', 'open this project')
    .option('--sample', 'open the bundled Lao–Thai sample project')
    .option('--annotator <name>', 'your name on every edit (default: the login name)')
    .option(
      '--token <token>',
      'a fixed access token (20+ letters, digits, - or _), so that pages left open reconnect after a restart (with --port)',
      parseToken,
    )
    .option('--team', "serve the project to a team: its accounts log in (mekong user add), each call checked against the account's role")
    .option('--host <address>', 'the address to listen on (default 127.0.0.1; another needs --team and TLS or --behind-proxy)')
    .option('--tls-cert <file>', 'team mode: serve HTTPS with this PEM certificate (with --tls-key)')
    .option('--tls-key <file>', "team mode: the certificate's PEM private key")
    .option('--behind-proxy', 'team mode: a TLS reverse proxy (nginx, Caddy) forwards to this server; needs --origin')
    .option('--origin <url>', 'team mode: the address browsers open (e.g. https://align.example.org); Host and Origin must match it')
    .action(async (o: ServeOptions) => {
      const server = serverOptions(o);
      const ctx = createContext('browser', o.annotator);
      const opened = o.sample
        ? await dispatch(ctx, 'project.openSample', {})
        : o.project
          ? await dispatch(ctx, 'project.open', { path: o.project })
          : null;
      if (opened && !opened.ok) throw new UserError(opened.error.error);
      const started = await startServer(ctx, server);
      console.log(`Mekong is at ${started.url}${o.team ? ' (log in with an account of mekong user add)' : ''}`);
      // A clean stop: running jobs are cancelled and waited for (a training run ends marked
      // cancelled, its worker releases its ONNX sessions; exiting under them aborted the
      // process), then the project closes, which copies the WAL into the file.
      const stop = async () => {
        const ended = await ctx.jobs.cancelAll(STOP_LIMIT_MS);
        if (!ended) console.error(`mekong: jobs still running after ${STOP_LIMIT_MS / 1000} s; stopping anyway`);
        await started.close();
        ctx.store?.close();
        process.exit(ended ? 0 : 1);
      };
      process.once('SIGINT', () => void stop());
      process.once('SIGTERM', () => void stop());
    });
}
