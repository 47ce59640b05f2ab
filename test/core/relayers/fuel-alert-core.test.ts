/**
 * The fuel alert on the real core and the local service with the dry demo wallet: over 72 simulated
 * minutes of five-minute polls, it fires (a warning) before the wallet's deliveries stop and
 * resolves (a success) after the refill; no other wallet alerts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startTeleporterService, type DemoRelayer } from '../../../src/local-data-api';
import { chainLabel } from '../../../src/shared/chains';
import type { NotificationPayload } from '../../../src/shared/contract';
import type { RelayerEconomics } from '../../../src/shared/relayers';
import { JumpClock } from '../http-helpers';
import { coreOnService } from '../core-on-service';

// No history: the dry wallet opens at 13:00 with its few dozen deliveries, runs dry, and is refilled at 14:00.
const START = Date.UTC(2026, 0, 1, 13);
const REFILL_AT = Date.UTC(2026, 0, 1, 14);

describe('the fuel alert', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('warns before the dry wallet stops delivering and announces the refill; no false alert', { timeout: 240_000 }, async () => {
    const clock = new JumpClock(START);
    const svc = await startTeleporterService({ clock, rate: 2, dryWallet: true, warmStore: false, rateLimitPerMinute: { keyed: 1e6, anonymous: 1e6 } });
    cleanups.push(() => svc.close());
    const dry = svc.simulator.wallets.dry!;
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
    const core = await coreOnService(svc.url, clock, cleanups);
    const shown: (NotificationPayload & { at: number })[] = [];
    core.attachNotifier((n) => void shown.push({ ...n, at: clock.now() }));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    // The dry wallet's relayer and one other with full wallets.
    const seen = new Set<string>();
    const watched = info.demoRelayers.filter((r) => r.routes.length && (r.address.toLowerCase() === dry.relayer || r.behaviour === 'steady'));
    expect(watched.length).toBeGreaterThanOrEqual(2);
    for (const relayer of watched) {
      for (const r of relayer.routes) {
        const key = `${r.source}>${r.destination}`;
        if (seen.has(key)) continue;
        seen.add(key);
        await call('addRoute', { source: r.source, destination: r.destination, alert: false });
      }
      await call('addRelayer', { address: relayer.address, label: relayer.name, alert: false });
    }
    const swift = info.demoRelayers.find((r) => r.address.toLowerCase() === dry.relayer)!;
    const chain = chainLabel(dry.blockchainId);
    let lowSeen = false;
    const end = REFILL_AT + 12 * 60_000;
    while (clock.now() < end) {
      await call('pollNow');
      const e = await call<RelayerEconomics>('relayerEconomics');
      lowSeen ||= e.fuel.some((f) => f.low && f.relayer === dry.relayer && f.blockchainId === dry.blockchainId);
      // A cycle every 5 minutes: each reads the balances (read every 5 minutes).
      await clock.advance(5 * 60_000);
    }
    const fuel = shown.filter((n) => /gas|refilled/.test(n.title));
    const fired = fuel.filter((n) => n.title === `Relayer low on gas: ${swift.name} on ${chain}`);
    const resolved = fuel.filter((n) => n.title === `Relayer refilled: ${swift.name} on ${chain}`);
    // Nothing else: only the dry wallet's alert and its refill.
    expect(fuel).toHaveLength(fired.length + resolved.length);
    expect(fired.length).toBeGreaterThanOrEqual(1);
    expect(fired[0]!.severity).toBe('warning');
    expect(fired[0]!.body).toMatch(new RegExp(`^Relayer ${swift.name} will run out of gas on ${chain} in about \\d+ h at the last hour's rate\\.$`));
    expect(lowSeen).toBe(true);
    // Each time the wallet could not pay during the run, an alert was firing before.
    const stalls = svc.simulator.wallets.truth(clock.now()).find((w) => w.relayer === dry.relayer && w.blockchainId === dry.blockchainId)!.stalls;
    const inRun = stalls.filter((t) => t > START && t < end);
    expect(inRun.length).toBeGreaterThanOrEqual(1);
    for (const stall of inRun) expect(fired.some((f) => f.at < stall)).toBe(true);
    // The refill at 14:00 resolves it, once, as a success.
    expect(resolved).toHaveLength(1);
    expect(resolved[0]!.severity).toBe('success');
    expect(resolved[0]!.at).toBeGreaterThanOrEqual(REFILL_AT);
    expect(resolved[0]!.at).toBeGreaterThan(fired[0]!.at);
  });
});
