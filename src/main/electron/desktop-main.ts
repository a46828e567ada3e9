// The desktop app's main process: one sandboxed window on the renderer, the API served
// over IPC (every call validated by api/dispatch.ts, and only from the app's own top frame),
// job events pushed to the window, the strict CSP on every response. The window never
// navigates, redirects or frames anything but its own page, grants no permission, and
// opens an https link in the browser only after asking (window-policy.ts decides).
// Opens the bundled sample project on first start.
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';
import { createContext } from '../api/create-context.ts';
import { dispatch } from '../api/dispatch.ts';
import { externalLink, isOwnPage, rendererUrl } from '../window-policy.ts';

const here = dirname(fileURLToPath(import.meta.url));
process.env.MEKONG_BUNDLE_DIR ??= here;

const appUrl = rendererUrl(join(here, '../renderer/index.html'), process.env.ELECTRON_RENDERER_URL, app.isPackaged);
const ctx = createContext('electron', undefined, join(app.getPath('userData'), 'projects'));

const FILTERS = {
  corpus: [
    { name: 'Corpora', extensions: ['tsv', 'csv', 'tmx', 'jsonl', 'txt'] },
    { name: 'All files', extensions: ['*'] },
  ],
  links: [
    { name: 'Links', extensions: ['txt', 'align', 'talp', 'pharaoh', 'wa'] },
    { name: 'All files', extensions: ['*'] },
  ],
  project: [{ name: 'Mekong projects', extensions: ['mekong'] }],
  export: [{ name: 'All files', extensions: ['*'] }],
};

ctx.dialogs = {
  async openFile(purpose) {
    const r = await dialog.showOpenDialog({ properties: ['openFile'], filters: FILTERS[purpose] });
    return r.canceled ? null : (r.filePaths[0] ?? null);
  },
  async saveFile(purpose, defaultName) {
    const r = await dialog.showSaveDialog({ defaultPath: defaultName, filters: FILTERS[purpose] });
    return r.canceled ? null : (r.filePath ?? null);
  },
};

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1400,
    height: 900,
    title: 'Mekong',
    webPreferences: {
      preload: join(here, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    },
  });
  win.webContents.setWindowOpenHandler(({ url }) => {
    const link = externalLink(url);
    if (link) void askToOpen(win, link);
    return { action: 'deny' };
  });
  const stay = (e: { preventDefault(): void }, url: string) => {
    if (!isOwnPage(url, appUrl)) e.preventDefault();
  };
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  win.webContents.on('will-redirect', (e) => stay(e, e.url));
  win.webContents.on('will-frame-navigate', (e) => stay(e, e.url));
  win.webContents.on('will-attach-webview', (e) => e.preventDefault());
  const off = ctx.jobs.onEvent((e) => win.webContents.send('mekong:event', e));
  win.on('closed', off);
  void win.loadURL(appUrl);
  return win;
}

/** Opens an https link in the user's browser once they agreed, showing the whole address. */
async function askToOpen(win: BrowserWindow, link: URL): Promise<void> {
  const r = await dialog.showMessageBox(win, {
    type: 'question',
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    message: 'Open this address in your web browser?',
    detail: link.href,
  });
  if (r.response === 0) await shell.openExternal(link.href);
}

app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  session.defaultSession.setPermissionCheckHandler(() => false);
  ipcMain.handle('mekong:invoke', (event, channel: unknown, input: unknown) => {
    const frame = event.senderFrame;
    if (!frame || frame.parent !== null || !isOwnPage(frame.url, appUrl)) {
      return { ok: false, error: { error: 'calls from other frames or pages are refused', kind: 'input' } };
    }
    return dispatch(ctx, String(channel), input);
  });
  await dispatch(ctx, 'project.openSample', {});
  createWindow();
  app.on('activate', () => BrowserWindow.getAllWindows().length === 0 && createWindow());
});

app.on('window-all-closed', () => {
  ctx.store?.close();
  if (process.platform !== 'darwin') app.quit();
});
