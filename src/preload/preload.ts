// The preload: exposes exactly the API contract (src/shared/api.ts) to the sandboxed
// renderer as `window.mekong`, nothing else. Results come back as {ok, value | error}
// from api/dispatch.ts and are turned into resolved values or thrown Errors here.
import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import type { JobEvent, MekongApi } from '../shared/api.ts';

type Reply = { ok: true; value: unknown } | { ok: false; error: { error: string } };

const api: MekongApi = {
  async invoke(channel, input) {
    const reply = (await ipcRenderer.invoke('mekong:invoke', channel, input)) as Reply;
    if (!reply.ok) throw new Error(reply.error.error);
    return reply.value as never;
  },
  onEvent(listener) {
    const wrapped = (_e: IpcRendererEvent, event: JobEvent) => listener(event);
    ipcRenderer.on('mekong:event', wrapped);
    return () => ipcRenderer.removeListener('mekong:event', wrapped);
  },
};

contextBridge.exposeInMainWorld('mekong', api);
