import type { IpcRenderer } from 'electron';
import type { InvokeResponse, MonitorEvent, MonitorMethod, MonitorTransport } from '../shared/contract';
// Only the channel names: the preload stays small and carries no schema code.
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../shared/ipc-channels';

export function createIpcTransport(ipc: Pick<IpcRenderer, 'invoke' | 'on' | 'removeListener'>): MonitorTransport {
  return {
    invoke: (method: MonitorMethod, input: unknown): Promise<InvokeResponse> => ipc.invoke(IPC_INVOKE_CHANNEL, method, input),
    subscribe(listener: (event: MonitorEvent) => void): () => void {
      const relay = (_event: unknown, payload: MonitorEvent) => listener(payload);
      ipc.on(IPC_EVENT_CHANNEL, relay);
      return () => {
        ipc.removeListener(IPC_EVENT_CHANNEL, relay);
      };
    },
  };
}
