// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import SettingsView from '../../src/renderer/src/views/SettingsView.vue';
import type { SettingsPatch } from '../../src/shared/contract';
import { freePort } from '../headless/engines';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const SLACK = { type: 'webhook' as const, format: 'slack' as const, url: 'https://hooks.example/services/T1/B2', timeoutSeconds: 5 };

async function mountSettings(channels: (typeof SLACK | { type: 'webhook'; format: 'json'; url: string })[] = [SLACK]) {
  const ctx = await setupRealRenderer();
  // Saved before the page opens (no watches, so nothing is ever sent to them).
  expect(await ctx.core.invoke('updateSettings', { alertChannels: channels })).toMatchObject({ ok: true });
  wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  await until(() => expect(wrapper!.find('[data-testid="alert-channel-url-0"]').exists()).toBe(true));
  return { ...ctx, w: wrapper };
}

const savedChannels = (calls: unknown[]) => calls.map((p) => (p as SettingsPatch).alertChannels);

describe('AlertChannelsCard in Settings', () => {
  it('lists the saved channels, refuses a bad URL beside the field and beside Save, then adds and removes channels', async () => {
    const { w, transport, api } = await mountSettings();
    expect((w.get('[data-testid="alert-channel-url-0"]').element as HTMLInputElement).value).toBe(SLACK.url);
    expect(w.get('[data-testid="alert-channel-kind-0"]').text()).toContain('Slack webhook');

    await w.get('[data-testid="alert-channel-add"]').trigger('click');
    await w.get('[data-testid="alert-channel-url-1"]').setValue('ftp://127.0.0.1:9093');
    await w.get('form').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-alert-channel-url-1"]').text()).toBe('Alertmanager url must start with http:// or https://.'));
    expect(w.get('[data-testid="settings-save-error"]').text()).toContain('Alertmanager url must start with http:// or https://.');
    expect(transport.callsOf('updateSettings')).toEqual([]);

    await w.get('[data-testid="alert-channel-url-1"]').setValue(' http://127.0.0.1:9093 ');
    await w.get('[data-testid="alert-channel-name-1"]').setValue('on-call');
    await w.get('form').trigger('submit');
    await until(() => expect(transport.callsOf('updateSettings')).toHaveLength(1));
    await until(() => expect(w.find('[data-testid="field-error-alert-channel-url-1"]').exists()).toBe(false));
    expect(savedChannels(transport.callsOf('updateSettings'))).toEqual([[SLACK, { type: 'alertmanager', url: 'http://127.0.0.1:9093', name: 'on-call' }]]);

    await w.get('[data-testid="alert-channel-remove-0"]').trigger('click');
    await w.get('form').trigger('submit');
    await until(() => expect(transport.callsOf('updateSettings')).toHaveLength(2));
    expect(savedChannels(transport.callsOf('updateSettings')).at(-1)).toEqual([{ type: 'alertmanager', url: 'http://127.0.0.1:9093', name: 'on-call' }]);
    await until(async () => expect((await api.getSettings()).alertChannels).toEqual([{ type: 'alertmanager', url: 'http://127.0.0.1:9093', name: 'on-call' }]));
  });

  it('says plainly when a name is taken twice', async () => {
    const { w, transport } = await mountSettings([SLACK, { type: 'webhook', format: 'json', url: 'https://example.org/hook' }]);
    await w.get('[data-testid="alert-channel-name-0"]').setValue('ops');
    await w.get('[data-testid="alert-channel-name-1"]').setValue('ops');
    await w.get('form').trigger('submit');
    await until(() => expect(w.get('[data-testid="field-error-alert-channel-name-1"]').text()).toBe('Another channel is already named "ops".'));
    expect(transport.callsOf('updateSettings')).toEqual([]);
  });

  it('shows how a failing channel stands, refuses a link-local or metadata URL at its field, and saves it once allowed', async () => {
    const ctx = await setupRealRenderer();
    const closed = await freePort();
    const dead = { type: 'webhook' as const, format: 'json' as const, url: `http://127.0.0.1:${closed}/hook`, timeoutSeconds: 1 };
    expect(await ctx.core.invoke('updateSettings', { alertChannels: [dead], notifications: { new: true } })).toMatchObject({ ok: true });
    // One alert for it: a watched address sends a message; the channel's receiver is not there.
    const address = ctx.service.simulator.addresses[0]!;
    await ctx.core.invoke('addWatch', { address });
    await ctx.poll();
    await ctx.clock.advance(1000);
    ctx.service.simulator.send({ outcome: 'normal', from: address, deliveryDelayMs: 3_600_000 });
    await ctx.clock.advance(1000);
    await ctx.poll();
    await until(async () => expect((await ctx.api.alertChannelStates())[0]?.failures).toBe(1));

    wrapper = mount(SettingsView, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    const w = wrapper;
    await until(() =>
      expect(w.get('[data-testid="alert-channel-state-0"]').text()).toMatch(
        /^failing since \d\d:\d\d \(1 failed attempt in a row, backing off up to 5 min\); next try in \d s; 1 alert kept: Cannot reach http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)\.$/,
      ),
    );

    await w.get('[data-testid="alert-channel-url-0"]').setValue('http://[::ffff:169.254.169.254]/latest');
    await w.get('form').trigger('submit');
    await until(() =>
      expect(w.get('[data-testid="field-error-alert-channel-url-0"]').text()).toBe(
        'Webhook url points at [::ffff:a9fe:a9fe], a link-local address, where cloud metadata services answer: refused, as such addresses can hand out a cloud machine\'s credentials. To send there anyway, tick "Allow link-local and metadata addresses" under Settings → Alert channels.',
      ),
    );
    expect((await ctx.api.getSettings()).alertChannels).toEqual([dead]);

    await w.get('[data-testid="alert-channels-allow-link-local"]').trigger('click');
    await w.get('form').trigger('submit');
    await until(async () => expect((await ctx.api.getSettings()).allowLinkLocalAlertTargets).toBe(true));
    expect((await ctx.api.getSettings()).alertChannels).toEqual([{ ...dead, url: 'http://[::ffff:169.254.169.254]/latest' }]);
    expect(w.find('[data-testid="field-error-alert-channel-url-0"]').exists()).toBe(false);
  });
});
