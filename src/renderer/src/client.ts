import { getCurrentScope, onScopeDispose } from 'vue';
import type { MonitorApi } from '../../shared/contract';
import { systemClock, type Clock } from '../../shared/clock';
import { createMonitorEvents, type MonitorEventOf, type MonitorEvents, type MonitorEventType } from './monitor-events';

/**
 * The one handle the stores use to reach the core. main.ts installs the real client (Electron bridge
 * or web transport); tests install one built on an in-memory transport and a ManualClock.
 */
interface Installed {
  api: MonitorApi;
  clock: Clock;
  events: MonitorEvents;
}

let installed: Installed | null = null;

export function installMonitor(api: MonitorApi, clock: Clock = systemClock): void {
  installed?.events.close();
  installed = { api, clock, events: createMonitorEvents((listener) => api.onEvent(listener)) };
}

export function monitor(): MonitorApi {
  if (!installed) throw new Error('installMonitor() was not called before the stores were used.');
  return installed.api;
}

/**
 * Subscribes to one kind of core event, validated against the contract (monitor-events.ts); a store
 * subscribes to the events it needs when it is created. Returns the unsubscribe function.
 */
export function onMonitorEvent<T extends MonitorEventType>(type: T, handler: (event: MonitorEventOf<T>) => void): () => void {
  if (!installed) throw new Error('installMonitor() was not called before the stores were used.');
  return installed.events.on(type, handler);
}

type MonitorEventHandlers = { [T in MonitorEventType]?: (event: MonitorEventOf<T>) => void };

/** A store's subscriptions, by event type: they end with the store (its effect scope). */
export function useMonitorEvents(handlers: MonitorEventHandlers): void {
  const stops = (Object.keys(handlers) as MonitorEventType[]).map((type) =>
    onMonitorEvent(type, handlers[type] as (event: MonitorEventOf<typeof type>) => void),
  );
  if (getCurrentScope()) onScopeDispose(() => stops.forEach((stop) => stop()));
}

export function clock(): Clock {
  return installed?.clock ?? systemClock;
}
