/**
 * The renderer's stores against the real core: `createMonitorCore` in this process (real SQLite in a
 * temp folder) reading the real local service on 127.0.0.1, reached through an in-memory transport
 * that carries calls and events the way the web host does: JSON both ways (so a store that passed a
 * live reactive object or kept a reference to the core's answer would show it), errors as values. Time is one jump clock shared by the service, the core and the renderer.
 */
import { afterEach, vi } from 'vitest';
import { createPinia, setActivePinia, type Pinia } from 'pinia';
import type { Component } from 'vue';
import { mount, type VueWrapper } from '@vue/test-utils';
import type { MonitorCore, MonitorCoreOptions } from '../../src/core/monitor-core';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service';
import { installMonitor } from '../../src/renderer/src/client';
import { type InvokeResponse, type MonitorApi, type MonitorEvent, type MonitorMethod, type MonitorTransport } from '../../src/shared/contract';
import { createMonitorClient } from '../../src/renderer/src/transport/monitor-client';
import { MonitorError } from '../../src/shared/errors';
import { JumpClock } from '../core/http-helpers';
import { coreOnService } from '../core/core-on-service';
import { BEAM, C_CHAIN, DFK } from './fixtures';
import PollStatusBar from '../../src/renderer/src/components/PollStatusBar.vue';
import { useStatusStore } from '../../src/renderer/src/stores/status';

/** What crosses the wire: a JSON copy (undefined stays undefined, as an absent input). */
const wire = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

/** Carries calls to a core in the same process; records them and can hold one back (ordering tests). */
export class InMemoryTransport implements MonitorTransport {
  /** Every call the renderer sent, in order ("no request sent" reads this). */
  readonly calls: { method: MonitorMethod; input: unknown }[] = [];
  private gates = new Map<MonitorMethod, Promise<void>[]>();
  private shellListeners = new Set<(event: MonitorEvent) => void>();
  /** While true the core's events are lost on the way, as they are while a web page's socket is down. */
  dropping = false;

  constructor(private readonly core: MonitorCore) {}

  async invoke(method: MonitorMethod, input: unknown): Promise<InvokeResponse> {
    this.calls.push({ method, input: wire(input) });
    const gate = this.gates.get(method)?.shift();
    if (gate) await gate;
    return wire(await this.core.invoke(method, wire(input)));
  }

  subscribe(listener: (event: MonitorEvent) => void): () => void {
    this.shellListeners.add(listener);
    const off = this.core.onEvent((e) => {
      if (!this.dropping) listener(wire(e));
    });
    return () => {
      this.shellListeners.delete(listener);
      off();
    };
  }

  /**
   * An event the shell adds on its own (Electron's main process sends focus-message when a desktop
   * notification is clicked): the one part of the stream that cannot run here.
   */
  fromShell(event: MonitorEvent): void {
    for (const l of this.shellListeners) l(wire(event));
  }

  callsOf(method: MonitorMethod): unknown[] {
    return this.calls.filter((c) => c.method === method).map((c) => c.input);
  }

  /** Holds the next call of `method` until release() (the core answers it only then). */
  hold(method: MonitorMethod): () => void {
    let release!: () => void;
    const p = new Promise<void>((r) => (release = r));
    this.gates.set(method, [...(this.gates.get(method) ?? []), p]);
    return release;
  }
}

export interface RealRenderer {
  core: MonitorCore;
  service: SimulatedService;
  clock: JumpClock;
  transport: InMemoryTransport;
  api: MonitorApi;
  pinia: Pinia;
  /** Polls once and waits for the cycle (its batched event has been delivered when this resolves). */
  poll: () => Promise<void>;
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A fresh local service (no spontaneous traffic unless asked), a started core on it that polls only
 * when told, a fresh Pinia and the renderer's client installed on the in-memory transport.
 */
export async function setupRealRenderer(
  service: SimulatedServiceOptions = {},
  shell: Pick<MonitorCoreOptions, 'shell' | 'openExternal'> = { shell: 'web' },
): Promise<RealRenderer> {
  const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
  const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 20, ...service });
  cleanups.push(() => svc.close());
  const core = await coreOnService(svc.url, clock, cleanups, shell);
  const transport = new InMemoryTransport(core);
  const api = createMonitorClient(transport, (e) => new MonitorError(e));
  installMonitor(api, clock);
  const pinia = createPinia();
  setActivePinia(pinia);
  const poll = async () => {
    const r = await core.invoke('pollNow', undefined);
    if (!r.ok) throw new Error(r.error.message);
  };
  return { core, service: svc, clock, transport, api, pinia, poll };
}

/**
 * Fills the core's cache the way it fills in use: `beam` then `dfk` messages (C-Chain → Beam / DFK) of a
 * watched address, a second apart, found by one poll. Returns their IDs in the order sent.
 */
export async function fillCache(r: RealRenderer, beam: number, dfk: number): Promise<string[]> {
  const address = r.service.simulator.addresses[0]!;
  await r.core.invoke('addWatch', { address });
  await r.poll();
  const ids: string[] = [];
  for (let i = 0; i < beam + dfk; i++) {
    await r.clock.advance(1000);
    const destination = i < beam ? BEAM.blockchainId : DFK.blockchainId;
    ids.push(r.service.simulator.send({ outcome: 'normal', from: address, source: C_CHAIN.blockchainId, destination, deliveryDelayMs: 10 * 3_600_000 }));
  }
  await r.clock.advance(1000);
  await r.poll();
  return ids;
}

/** Waits for a condition on real HTTP answers; generous, because a loaded CI machine is slow (never a sleep). */
export const until = <T>(check: () => T | Promise<T>): Promise<T> => vi.waitFor(check, { timeout: 20_000, interval: 20 });

/** `component` (with `props`) mounted on the page over a fresh real renderer; unmounted after the test, before its core closes. */
export async function mountOnRealCore(component: Component, props: Record<string, unknown> = {}): Promise<RealRenderer & { w: VueWrapper }> {
  const ctx = await setupRealRenderer();
  const w = mount(component, { props, global: { plugins: [ctx.pinia] }, attachTo: document.body });
  cleanups.push(() => w.unmount());
  return { ...ctx, w };
}

/**
 * The poll status bar on a real core that watches the service's first address, after one poll (the bar
 * shown, its state read): the status bar's tests change the world and poll, then read it.
 */
export async function statusBarWatching(): Promise<RealRenderer & { w: VueWrapper; address: string }> {
  const ctx = await setupRealRenderer();
  const address = ctx.service.simulator.addresses[0]!;
  const added = await ctx.core.invoke('addWatch', { address });
  if (!added.ok) throw new Error(added.error.message);
  await ctx.poll();
  await useStatusStore().load();
  const w = mount(PollStatusBar, { global: { plugins: [ctx.pinia] } });
  cleanups.push(() => w.unmount());
  await until(() => {
    if (!w.find('[data-testid="poll-state"]').exists()) throw new Error('the status bar shows no state yet');
  });
  return { ...ctx, w, address };
}
