// @vitest-environment happy-dom
/**
 * The Relayers view's own-metrics section against the real core (local service, real SQLite) and a
 * relayer-metrics endpoint over real HTTP serving the ICM relayer's names and labels: the URL set in the
 * view (a bad one refused at the field), the "not read" state with its reason, the relayer's counts
 * beside the chains' per route, and the disagreement in words.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import RelayerOwnViewSection from '../../src/renderer/src/components/RelayerOwnViewSection.vue';
import { RelayerStyleMetrics } from '../../src/devnet/relayer-metrics';
import { BEAM as BEAM_CHAIN, C_CHAIN as C } from './fixtures';
import { setupRealRenderer, until } from './real-core';

const OURS = '0x1111111111111111111111111111111111111111';
const C_CHAIN = C.blockchainId;
const BEAM = BEAM_CHAIN.blockchainId;

let wrapper: VueWrapper | null = null;
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  wrapper?.unmount();
  wrapper = null;
  for (const c of closers.splice(0)) await c();
});

/** The relayer's endpoint; `broken` makes it answer what no relayer does. */
async function endpoint(m: RelayerStyleMetrics) {
  const ep = { url: '', broken: false };
  const server: Server = createServer((_req, res) => {
    if (ep.broken) return void res.writeHead(503).end();
    void m.text().then((t) => res.writeHead(200).end(t));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  ep.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
  closers.push(() => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))));
  return ep;
}

describe("the relayer's own metrics in the Relayers view (real core)", () => {
  it('sets the URL, shows "not read" with its reason, then its counts beside the chains and the disagreement in words', async () => {
    const ctx = await setupRealRenderer({ relayers: { relayers: [{ name: 'Only', behaviour: 'steady', share: 1, address: OURS }] } });
    const metrics = new RelayerStyleMetrics('current');
    const ep = await endpoint(metrics);
    await ctx.api.addRoute({ source: 'C-Chain', destination: 'Beam' });
    await ctx.api.addRelayer({ address: OURS, label: 'ours', silentMinutes: 600 });
    wrapper = mount(RelayerOwnViewSection, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    const block = () => w.get(`[data-testid="own-view-relayer"][data-address="${OURS}"]`);
    await until(() => expect(block().attributes('data-state')).toBe('off'));
    expect(block().get('[data-testid="own-view-state"]').text()).toBe(
      "Not read: give its metrics URL (the relayer's metrics-port; its default is http://127.0.0.1:9090/metrics).",
    );

    // A URL that is not http(s) is refused at the field.
    await block().get('[data-testid="own-view-url"]').setValue('ftp://127.0.0.1/metrics');
    await block().get('form').trigger('submit');
    await until(() => expect(block().get('[data-testid="own-view-url-error"]').text()).toMatch(/http:\/\/ or https:\/\//));

    // Set while the endpoint fails: read at the next cycle, "not read" with the reason.
    ep.broken = true;
    await block().get('[data-testid="own-view-url"]').setValue(ep.url);
    await block().get('form').trigger('submit');
    await until(() => expect(block().attributes('data-state')).toBe('waiting'));
    await ctx.poll();
    await until(() => expect(block().get('[data-testid="own-view-not-read"]').text()).toBe('relayer metrics not read: HTTP 503'));

    // It answers: a baseline, then its counts (4 relayed, 3 of them claimed only) beside the chains' 1.
    ep.broken = false;
    await ctx.clock.advance(2 * 60_000);
    await ctx.poll();
    await until(() => expect(block().attributes('data-state')).toBe('baseline'));
    ctx.service.simulator.send({ outcome: 'normal', source: C_CHAIN, destination: BEAM, deliveryDelayMs: 3_000, executed: true });
    metrics.relayed({ source: C_CHAIN, destination: BEAM }, 4);
    metrics.failedToRelay({ source: C_CHAIN, destination: BEAM }, 'failed to send warp message', 2);
    await ctx.clock.advance(2 * 60_000);
    await ctx.poll();
    await until(() => expect(block().attributes('data-state')).toBe('read'));
    const row = block().get(`[data-testid="own-view-route"][data-source="${C_CHAIN}"][data-destination="${BEAM}"]`);
    expect(row.get('[data-testid="own-view-relayer-delivered"]').text()).toBe('4');
    expect(row.get('[data-testid="own-view-chain-delivered"]').text()).toBe('1');
    expect(row.get('[data-testid="own-view-failed"]').text()).toBe("2 (2 × 'failed to send warp message')");
    expect(row.attributes('data-disagrees')).toBe('true');
    expect(block().get('[data-testid="own-view-warning"]').text()).toBe(
      'the relayer says it delivered 4 messages C-Chain → Beam in the last 2 min; the chains show 1 (alerts at 3 or more unseen)',
    );
  }, 60_000);
});
