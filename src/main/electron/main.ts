// The desktop app's main process: one sandboxed window on the renderer, the API served
// over IPC (every call validated by api/dispatch.ts), job events pushed to the window,
// the strict CSP on every response. Opens the bundled sample project on first start.
import { app, BrowserWindow, dialog, ipcMain, session, shell } from 'electron';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONTENT_SECURITY_POLICY } from '../../shared/csp.ts';
import { createContext } from '../api/create-context.ts';
import { dispatch } from '../api/dispatch.ts';

const here = dirname(fileURLToPath(import.meta.url));
process.env.MEKONG_BUNDLE_DIR ??= here;

const ctx = createContext('electron', undefined, join(app.getPath('userData'), 'projects'));

const FILTERS = {
  corpus: [{ name: 'Corpora', extensions: ['tsv', 'csv', 'tmx', 'jsonl', 'txt'] }, { name: 'All files', extensions: ['*'] }],
  links: [{ name: 'Links', extensions: ['txt', 'align', 'talp', 'pharaoh', 'wa'] }, { name: 'All files', extensions: ['*'] }],
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
    if (url.startsWith('https://')) void shell.openExternal(url);
    return { action: 'deny' };
  });
  win.webContents.on('will-navigate', (e) => e.preventDefault());
  const off = ctx.jobs.onEvent((e) => win.webContents.send('mekong:event', e));
  win.on('closed', off);
  if (process.env.ELECTRON_RENDERER_URL) void win.loadURL(process.env.ELECTRON_RENDERER_URL);
  else void win.loadFile(join(here, '../renderer/index.html'));
  return win;
}

app.whenReady().then(async () => {
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [CONTENT_SECURITY_POLICY] } });
  });
  session.defaultSession.setPermissionRequestHandler((_wc, _permission, callback) => callback(false));
  ipcMain.handle('mekong:invoke', (event, channel: unknown, input: unknown) => {
    if (event.senderFrame?.parent !== null) return { ok: false, error: { error: 'calls from subframes are refused', kind: 'input' } };
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
