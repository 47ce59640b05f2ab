// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { ownConnection } from '../../src/renderer/src/connection';
import MessagesView from '../../src/renderer/src/views/MessagesView.vue';
import PollStatusBar from '../../src/renderer/src/components/PollStatusBar.vue';
import ErrorAlert from '../../src/renderer/src/components/ErrorAlert.vue';
import Banners from '../../src/renderer/src/components/Banners.vue';
import CacheView from '../../src/renderer/src/views/CacheView.vue';
import { useMessagesStore } from '../../src/renderer/src/stores/messages';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { useStatusStore } from '../../src/renderer/src/stores/status';
import { BEAM } from './fixtures';
import { fillCache, setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
let stop: (() => void) | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  stop?.();
  stop = null;
});

const NETWORK_ERROR = {
  kind: 'network' as const,
  message: 'Cannot reach glacier-api.avax.network (ENOTFOUND). Check the network connection or the data source in Settings; polling resumes by itself.',
};

describe('a data-source change is a clean cut', () => {
  it('drops the old rows and error, reloads from the new source, and labels where rows came from', async () => {
    const ctx = await setupRealRenderer();
    for (let i = 0; i < 3; i++) {
      await ctx.clock.advance(1000);
      ctx.service.simulator.send({ outcome: 'normal', destination: BEAM.blockchainId });
    }
    await ctx.clock.advance(1000);
    const owner = ownConnection(null);
    stop = owner.stop;
    await owner.ready;
    const settings = useSettingsStore();
    wrapper = mount(MessagesView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.findAll('[data-testid="message-row"]')).toHaveLength(3));
    expect(wrapper.get('[data-testid="rows-source"]').text()).toMatch(/simulated demo rows/);

    // A source nobody listens on (tests never leave 127.0.0.1).
    await settings.save({ dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
    await until(() => expect(wrapper!.find('[data-testid="messages-error"]').exists()).toBe(true));
    expect(ctx.transport.callsOf('browseMessages')).toHaveLength(2);
    // Demo rows do not stay under the new source's error.
    expect(wrapper.findAll('[data-testid="message-row"]')).toHaveLength(0);
    expect(wrapper.find('[data-testid="rows-source"]').exists()).toBe(false);
    expect(wrapper.get('[data-testid="messages-error"]').text()).toContain('Cannot reach');

    await settings.save({ dataSource: { kind: 'local' } });
    await until(() => expect(wrapper!.findAll('[data-testid="message-row"]')).toHaveLength(3));
    expect(wrapper.find('[data-testid="messages-error"]').exists()).toBe(false);
    expect(useMessagesStore().error).toBeNull();
  });

  it('the start reads the Messages page once, even when the view opened before the settings came', async () => {
    const ctx = await setupRealRenderer();
    await ctx.clock.advance(1000);
    ctx.service.simulator.send({ outcome: 'normal', destination: BEAM.blockchainId });
    await ctx.clock.advance(1000);
    const release = ctx.transport.hold('getSettings');
    const owner = ownConnection(null);
    stop = owner.stop;
    wrapper = mount(MessagesView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    await until(() => expect(wrapper!.findAll('[data-testid="message-row"]')).toHaveLength(1));
    release();
    await owner.ready;
    // The page came from the source the settings then named: no second Data API read for it.
    expect(ctx.transport.callsOf('browseMessages')).toHaveLength(1);
  });

  it('labels what the cache kept from an earlier source, as the core database says, until that source is current again', async () => {
    const ctx = await setupRealRenderer();
    await fillCache(ctx, 2, 1);
    const owner = ownConnection(null);
    stop = owner.stop;
    await owner.ready;
    const settings = useSettingsStore();
    wrapper = mount(
      { components: { Banners, CacheView }, template: '<div><banners /><cache-view /></div>' },
      { global: { plugins: [ctx.pinia] }, attachTo: document.body },
    );
    await until(() => expect(wrapper!.find('[data-testid="demo-banner"]').exists()).toBe(true));
    await until(() => expect(wrapper!.findAll('[data-testid="cache-row"]')).toHaveLength(3));
    expect(wrapper.find('[data-testid="source-kept-banner"]').exists()).toBe(false);
    expect(wrapper.findAll('[data-testid="other-source"]')).toHaveLength(0);

    await settings.save({ dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9' } });
    await until(() => expect(wrapper!.find('[data-testid="source-kept-banner"]').exists()).toBe(true));
    const banner = wrapper.get('[data-testid="source-kept-banner"]');
    expect(banner.text()).toContain('Figures from the embedded demo (simulated) are kept in the local cache');
    expect(banner.text()).toContain('3 message(s) from the embedded demo (simulated), as of');
    expect(banner.text()).toContain('count only what the custom URL http://127.0.0.1:9 gives');
    await until(() => expect(wrapper!.find('[data-testid="demo-banner"]').exists()).toBe(false));
    // Each cached row of the demo says where it came from.
    await until(() => expect(wrapper!.findAll('[data-testid="other-source"]')).toHaveLength(3));
    expect(wrapper.get('[data-testid="other-source"]').attributes('data-source')).toBe('local');
    expect(wrapper.get('[data-testid="other-source"]').text()).toMatch(/^from Embedded demo, as of /);
    // A restart, another tab or another port reads the same: the core's database keeps it, not the page.
    expect((await ctx.api.getCacheSources()).others).toEqual([
      { source: 'local', name: 'the embedded demo (simulated)', messages: 3, asOf: expect.any(Number) },
    ]);

    // Back on the demo its figures are current again; the unreachable source gave none, so none is named.
    await settings.save({ dataSource: { kind: 'local' } });
    await until(() => expect(wrapper!.find('[data-testid="source-kept-banner"]').exists()).toBe(false));
    await until(() => expect(wrapper!.find('[data-testid="demo-banner"]').exists()).toBe(true));
    expect(wrapper.findAll('[data-testid="other-source"]')).toHaveLength(0);
  });

  it('never shows a time in the past as "next run"', async () => {
    const ctx = await setupRealRenderer();
    const status = useStatusStore();
    await status.load();
    // The core's own status, as a started poller reports it between cycles.
    ctx.transport.fromShell({ type: 'poll-status', status: { ...(await ctx.api.getPollStatus()), state: 'idle', nextRunAt: ctx.clock.now() + 10_000 } });
    status.startTicker();
    wrapper = mount(PollStatusBar, { global: { plugins: [ctx.pinia] } });
    await until(() => expect(wrapper!.find('[data-testid="poll-next"]').exists()).toBe(true));
    await ctx.clock.advance(17_000);
    await until(() => expect(wrapper!.find('[data-testid="poll-next"]').exists()).toBe(false));
    status.stopTicking();
  });

  it('an error that already says what to do gets no second hint', async () => {
    await setupRealRenderer();
    wrapper = mount(ErrorAlert, { props: { error: NETWORK_ERROR } });
    expect(wrapper.text().match(/Settings/g)).toHaveLength(1);
    wrapper.unmount();
    wrapper = mount(ErrorAlert, { props: { error: { kind: 'network', message: 'socket hang up' } } });
    expect(wrapper.text()).toContain('Check the data source in Settings');
  });
});
