// What the desktop window may load, navigate to, open and accept calls from. Pure functions
// of URLs (no 'electron' import) so that plain-Node tests cover them; electron/desktop-main.ts
// applies them to the window, its frames and IPC.
import { pathToFileURL } from 'node:url';

/** Hosts a development server may run on (electron-vite's `dev`, never in a packaged app). */
const DEV_HOSTS: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

const parse = (url: string): URL | null => (URL.canParse(url) ? new URL(url) : null);

/**
 * The page the window loads: the built renderer's index.html, or — only in an unpackaged
 * app, and only on a loopback http server — the development server's URL. A packaged app
 * never loads a URL from the environment with the preload attached.
 */
export function rendererUrl(indexHtml: string, devUrl: string | undefined, packaged: boolean): string {
  const dev = devUrl ? parse(devUrl) : null;
  if (!packaged && dev && dev.protocol === 'http:' && DEV_HOSTS.has(dev.hostname)) return dev.href;
  return pathToFileURL(indexHtml).href;
}

/** Whether `url` is a page of the app itself (same origin as the page it loaded; for file:, the same file). */
export function isOwnPage(url: string, appUrl: string): boolean {
  const u = parse(url);
  const app = parse(appUrl);
  if (!u || !app) return false;
  if (app.protocol === 'file:') return u.protocol === 'file:' && u.pathname === app.pathname;
  return u.origin === app.origin;
}

/** A link the user may open in their browser (after being asked): https only, no credentials in it. */
export function externalLink(url: string): URL | null {
  const u = parse(url);
  return u && u.protocol === 'https:' && !u.username && !u.password ? u : null;
}
