import type { MonitorEvent } from '../../shared/contract';
import { parseMonitorEvent } from '../../shared/contract';

export type MonitorEventType = MonitorEvent['type'];
export type MonitorEventOf<T extends MonitorEventType> = Extract<MonitorEvent, { type: T }>;
type AnyHandler = (event: MonitorEvent) => void;

/** Where a refused event or a failing handler is reported (the page's console by default). */
type EventWarn = (message: string, detail?: unknown) => void;

export interface MonitorEvents {
  /** Calls `handler` with every valid event of `type`; returns the unsubscribe function. */
  on<T extends MonitorEventType>(type: T, handler: (event: MonitorEventOf<T>) => void): () => void;
  /** Ends the one subscription to the transport. */
  close(): void;
}

/**
 * The renderer's one door for core events, whichever transport brought them (Electron IPC through the
 * preload, the web host's socket): each event is checked against the contract's schema, an invalid
 * one is dropped and reported, and a valid one goes only to the handlers of its type.
 */
export function createMonitorEvents(subscribe: (listener: (raw: unknown) => void) => () => void, warn: EventWarn = defaultWarn): MonitorEvents {
  const handlers = new Map<MonitorEventType, Set<AnyHandler>>();
  const unsubscribe = subscribe((raw) => {
    const parsed = parseMonitorEvent(raw);
    if (!parsed.ok) {
      warn(`Dropped an event that does not match the contract: ${parsed.reason}.`, raw);
      return;
    }
    for (const handler of [...(handlers.get(parsed.event.type) ?? [])]) {
      // One failing handler must not keep the event from the others.
      try {
        handler(parsed.event);
      } catch (e) {
        warn(`A handler of the ${parsed.event.type} event failed.`, e);
      }
    }
  });
  return {
    on(type, handler) {
      const set = handlers.get(type) ?? new Set<AnyHandler>();
      handlers.set(type, set);
      const h = handler as AnyHandler;
      set.add(h);
      return () => set.delete(h);
    },
    close: () => {
      handlers.clear();
      unsubscribe();
    },
  };
}

function defaultWarn(message: string, detail?: unknown): void {
  console.warn(`[teleporter-watch] ${message}`, detail);
}
