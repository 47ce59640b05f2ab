/**
 * The core's stand-in when it could not start (its data folder is read-only, full, or holds a newer
 * database): every call answers with that reason, so the app stays up and the page can say what is
 * wrong, instead of the process exiting and the desktop restarting it in a loop.
 */
import type { MonitorHandlers } from '../shared/contract';
import { MonitorError, toErrorInfo } from '../shared/errors';
import type { MonitorCore } from './monitor-core';

export function unavailableCore(reason: MonitorError): MonitorCore {
  const error = toErrorInfo(reason);
  const handlers = new Proxy({} as MonitorHandlers, {
    get: () => async () => {
      throw reason;
    },
  });
  return {
    handlers,
    invoke: async () => ({ ok: false, error }),
    addWatches: async () => {
      throw reason;
    },
    onEvent: () => () => undefined,
    attachNotifier: () => () => undefined,
    start: async () => undefined,
    close: async () => undefined,
  };
}
