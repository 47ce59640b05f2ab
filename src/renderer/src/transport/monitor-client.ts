import type { ErrorInfo } from '../../../shared/errors';
import { MONITOR_METHODS, type MonitorApi, type MonitorEvent, type MonitorTransport } from '../../../shared/contract';

/** Builds a typed MonitorApi from a generic `invoke` + `subscribe` transport. */
export function createMonitorClient(transport: MonitorTransport, makeError: (e: ErrorInfo) => Error): MonitorApi {
  const api: Record<string, unknown> = {
    onEvent: (listener: (event: MonitorEvent) => void) => transport.subscribe(listener),
  };
  for (const method of MONITOR_METHODS) {
    api[method] = async (input?: unknown) => {
      const res = await transport.invoke(method, input);
      if (!res.ok) throw makeError(res.error);
      return res.value;
    };
  }
  return api as MonitorApi;
}
