// @vitest-environment happy-dom
/**
 * Activity's one timeline on a real core: a watched route's backlog alert appears as a row with its
 * severity as it fires (the core's alerts event, no read again), beside the watched messages' transitions;
 * the alert-kind and severity filters hide and show it; clicking it marks the route's row in the Relayers
 * view; a resolve whose event was lost is there after resync(), as the core lists it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import ActivityView from '../../src/renderer/src/views/ActivityView.vue';
import RelayersView from '../../src/renderer/src/views/RelayersView.vue';
import { useActivityStore } from '../../src/renderer/src/stores/activity';
import { useRelayersStore } from '../../src/renderer/src/stores/relayers';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { EPISODE_KINDS } from '../../src/shared/vocabulary';
import { BEAM, C_CHAIN } from './fixtures';
import { setupRealRenderer, until } from './real-core';

const MIN = 60_000;
const wrappers: VueWrapper[] = [];
afterEach(() => {
  for (const w of wrappers.splice(0)) w.unmount();
});

describe('Activity: alerts in the timeline', () => {
  it('shows an alert row live with its severity, filters it, leads to its route in Relayers, and reads a missed resolve again on resync', async () => {
    const ctx = await setupRealRenderer();
    const { api, clock, poll, service, transport } = ctx;
    const a = service.simulator.addresses[0]!;
    await api.addWatch({ address: a });
    const route = await api.addRoute({ source: C_CHAIN.blockchainId, destination: BEAM.blockchainId, label: 'c-beam', backlogMinutes: 2 });
    await poll();
    const w = mount(ActivityView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    wrappers.push(w);
    await until(() => expect(w.find('[data-testid="activity-empty"]').exists()).toBe(true));
    const firstReads = transport.callsOf('listActivity').length;

    // A message of the watched address waits 10 min on the watched route: past 2 min the backlog alert fires.
    await clock.advance(1000);
    const late = service.simulator.send({
      outcome: 'normal',
      from: a,
      source: C_CHAIN.blockchainId,
      destination: BEAM.blockchainId,
      deliveryDelayMs: 10 * MIN,
    });
    for (let m = 0; m < 4; m++) {
      await clock.advance(MIN);
      await poll();
    }
    const rows = () => w.findAll('[data-testid="alert-row"], [data-testid="transition-row"]');
    await until(() => expect(w.findAll('[data-testid="alert-row"]')).toHaveLength(1));
    const fire = w.get('[data-testid="alert-row"]');
    expect(fire.attributes()).toMatchObject({ 'data-episode-kind': 'route_backlog', 'data-phase': 'fire', 'data-severity': 'warning' });
    expect(fire.get('[data-testid="alert-title"]').text()).toBe('Route backlog: c-beam');
    expect(fire.get('[data-testid="alert-body"]').text()).toMatch(/^The oldest pending message on C-Chain → Beam is older than 2 min/);
    expect(fire.get('.n-tag').text()).toBe('route backlog');
    // Newest first: the alert above the message's first sighting; both came by events, nothing was read again.
    expect(rows().map((r) => r.attributes('data-testid'))).toEqual(['alert-row', 'transition-row']);
    expect(w.get('[data-testid="transition-row"]').attributes('data-message-id')).toBe(late);
    expect(transport.callsOf('listActivity')).toHaveLength(firstReads);

    // The filters: its kind unchecked hides it (the message stays), a severity unchecked too; checked again, it is back.
    const toggle = async (testid: string) => {
      await w.get(`[data-testid="${testid}"]`).trigger('click');
    };
    await toggle('activity-alert-kind-route_backlog');
    await until(() => expect(rows().map((r) => r.attributes('data-testid'))).toEqual(['transition-row']));
    expect(transport.callsOf('listActivity').at(-1)).toMatchObject({ alertKinds: EPISODE_KINDS.filter((k) => k !== 'route_backlog') });
    await toggle('activity-alert-kind-route_backlog');
    await until(() => expect(w.findAll('[data-testid="alert-row"]')).toHaveLength(1));
    await toggle('activity-severity-info');
    await until(() => expect(rows().map((r) => r.attributes('data-testid'))).toEqual(['alert-row']));
    await toggle('activity-severity-info');
    await until(() => expect(rows()).toHaveLength(2));

    // The alert leads to its route's row in the Relayers view.
    await w.get('[data-testid="alert-row"]').trigger('click');
    expect(useUiStore().view).toBe('relayers');
    expect(useRelayersStore().focus).toEqual({ kind: 'route', sourceChain: C_CHAIN.blockchainId, destinationChain: BEAM.blockchainId });
    const relayersView = mount(RelayersView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(relayersView.find('[data-testid="route-row"][data-focused="true"]').attributes('data-route-id')).toBe(route.id));
    relayersView.unmount();
    expect(useRelayersStore().focus).toBeNull();

    // The events are lost while the message is delivered and the backlog clears: the list still shows the fire alone.
    transport.dropping = true;
    await clock.advance(7 * MIN);
    await poll();
    const core = await api.listActivity({ limit: 50 });
    expect(core.items.filter((i) => i.kind === 'alert').map((i) => (i.kind === 'alert' ? `${i.phase}:${i.severity}` : ''))).toEqual([
      'resolve:success',
      'fire:warning',
    ]);
    expect(w.findAll('[data-testid="alert-row"]')).toHaveLength(1);
    // The connection owner's resync reads the timeline again: the resolve, as a recovery, and the delivery are there.
    transport.dropping = false;
    await useActivityStore().resync();
    expect(useActivityStore().items).toEqual(core.items);
    await until(() => expect(w.findAll('[data-testid="alert-row"]').map((r) => r.attributes('data-severity'))).toEqual(['success', 'warning']));
    expect(w.get('[data-testid="alert-row"] [data-testid="alert-title"]').text()).toBe('Route backlog cleared: c-beam');
    expect(w.findAll('[data-testid="transition-row"]').map((r) => r.attributes('data-kind'))).toEqual(['left_pending', 'new']);
  });
});
