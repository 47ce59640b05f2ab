import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { MonitorEvent, Settings } from '../../src/shared/contract';
import { startLocalService } from '../../src/local-service';
import { waitFor } from '../support/wait-for';
import { sendWatched, startReceiver, WATCHED, type Receiver, type Service } from '../headless/rig';
import { tempDir } from './helpers';

/** The desktop path: channels saved through updateSettings, delivered by the core's outbox over real HTTP. */
describe('alert channels in settings', () => {
  let svc: Service;
  let core: MonitorCore;
  let tmp: ReturnType<typeof tempDir>;
  const events: MonitorEvent[] = [];
  /** A channel from the options, as the headless config file gives it. */
  let fixed: Receiver;

  beforeAll(async () => {
    svc = await startLocalService({ rate: 0, seed: 11 });
    tmp = tempDir();
    fixed = await startReceiver();
    core = await createMonitorCore({
      alerts: { channels: [{ type: 'webhook', url: `${fixed.url}/fixed`, format: 'json' }] },
      dataDir: tmp.dir,
      shell: 'web',
      version: '1.0.0',
      localService: { kind: 'url', url: svc.url },
      autoPoll: false,
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    });
    core.onEvent((e) => events.push(e));
    await core.start();
    const s = await core.invoke('updateSettings', { notifications: { new: true } });
    expect(s.ok).toBe(true);
    expect((await core.invoke('addWatch', { address: WATCHED, label: 'treasury' })).ok).toBe(true);
    await waitFor(
      async () => {
        await core.invoke('pollNow', undefined);
        const r = await core.invoke('listWatches', undefined);
        return r.ok && (r.value as { baselinePending: boolean }[]).every((x) => !x.baselinePending);
      },
      30_000,
      'the baseline',
    );
  });
  afterAll(async () => {
    await core.close();
    await svc.close();
    await fixed.close();
    tmp.cleanup();
  });

  const keys = (r: Receiver) => r.bodies.map((b) => (b.body as { key: string }).key);
  const setChannels = (alertChannels: unknown[]) => core.invoke('updateSettings', { alertChannels });
  const transition = async () => {
    const id = sendWatched(svc);
    const r = await core.invoke('pollNow', undefined);
    expect(r.ok).toBe(true);
    return id;
  };

  it('refuses a bad URL with a field error and keeps the saved channels', async () => {
    const bad = await setChannels([{ type: 'webhook', url: 'ftp://127.0.0.1/hook', format: 'json' }]);
    expect(!bad.ok && bad.error).toMatchObject({
      kind: 'invalid_input',
      field: 'alertChannels.0.url',
      message: 'Webhook url must start with http:// or https://.',
    });
    const long = await setChannels([{ type: 'alertmanager', url: `http://127.0.0.1/${'a'.repeat(2100)}` }]);
    expect(!long.ok && long.error).toMatchObject({ field: 'alertChannels.0.url', message: 'Alertmanager url must be at most 2048 characters.' });
    const twice = await setChannels([
      { type: 'webhook', url: 'http://127.0.0.1:1/a', name: 'ops' },
      { type: 'webhook', url: 'http://127.0.0.1:1/b', name: 'ops' },
    ]);
    expect(!twice.ok && twice.error).toMatchObject({ field: 'alertChannels.1.name', message: 'Another channel is already named "ops".' });
    const saved = await core.invoke('getSettings', undefined);
    expect(saved.ok && (saved.value as Settings).alertChannels).toEqual([]);
  });

  it('refuses a URL to a link-local or cloud metadata address at its field, saying how to allow it; allowed, it is saved', async () => {
    const meta = [{ type: 'webhook', name: 'meta', url: 'http://0xa9fea9fe/latest/meta-data', format: 'json' }];
    const refused = await setChannels([{ type: 'alertmanager', url: 'http://127.0.0.1:9093' }, ...meta]);
    expect(!refused.ok && refused.error).toMatchObject({
      kind: 'invalid_input',
      field: 'alertChannels.1.url',
      message:
        'Webhook url points at 169.254.169.254, a link-local address, where cloud metadata services answer: refused, as such addresses can hand out a cloud machine\'s credentials. To send there anyway, tick "Allow link-local and metadata addresses" under Settings → Alert channels.',
    });
    const gcp = await setChannels([{ type: 'webhook', url: 'http://metadata.google.internal/computeMetadata/v1/' }]);
    expect(!gcp.ok && gcp.error).toMatchObject({
      field: 'alertChannels.0.url',
      message: expect.stringMatching(/metadata\.google\.internal, a cloud metadata service: refused/),
    });
    const stored = await core.invoke('getSettings', undefined);
    expect(stored.ok && (stored.value as Settings).alertChannels).toEqual([]);
    try {
      // Allowed explicitly: saved (no transition is sent while it stands: tests stay on 127.0.0.1).
      const allowed = await core.invoke('updateSettings', { alertChannels: meta, allowLinkLocalAlertTargets: true });
      expect(allowed.ok && (allowed.value as Settings).allowLinkLocalAlertTargets).toBe(true);
      // Its state is listed (nothing waits); a save of other fields never trips over it.
      const states = await core.invoke('alertChannelStates', undefined);
      expect(states.ok && states.value).toContainEqual({
        key: 'webhook:meta',
        name: 'webhook meta',
        pending: 0,
        failures: 0,
        failingSince: null,
        nextAttemptAt: null,
        lastError: null,
      });
      expect((await core.invoke('updateSettings', { theme: 'dark' })).ok).toBe(true);
      // Turning the allowance off while it is saved is refused at the channel.
      const off = await core.invoke('updateSettings', { allowLinkLocalAlertTargets: false });
      expect(!off.ok && off.error).toMatchObject({ field: 'alertChannels.0.url' });
    } finally {
      expect((await core.invoke('updateSettings', { alertChannels: [], allowLinkLocalAlertTargets: false })).ok).toBe(true);
    }
  });

  it('a channel added through updateSettings gets the next transition once; removed, it gets nothing more', async () => {
    const hook = await startReceiver();
    const slack = await startReceiver();
    try {
      const before = await transition(); // Before any channel: never sent (a new channel does not replay history).
      const saved = await setChannels([
        { type: 'webhook', url: `${hook.url}/hook?token=s3cret-token-value`, format: 'json', name: 'ops' },
        { type: 'webhook', url: slack.url, format: 'slack' },
      ]);
      expect(saved.ok && (saved.value as Settings).alertChannels).toHaveLength(2);
      expect(events.some((e) => e.type === 'settings-changed' && e.settings.alertChannels.length === 2)).toBe(true);

      const id = await transition();
      await waitFor(() => hook.bodies.length >= 1 && slack.bodies.length >= 1, 10_000, 'both channels');
      expect(hook.bodies[0]).toMatchObject({ path: '/hook?token=s3cret-token-value', body: { key: `${id}:new`, messageId: id, watch: 'treasury' } });
      expect((slack.bodies[0]?.body as { text: string }).text).toContain('treasury');

      // Another settings change (not the channels) and another poll send nothing twice.
      expect((await core.invoke('updateSettings', { theme: 'dark' })).ok).toBe(true);
      await core.invoke('pollNow', undefined);
      const second = await transition();
      await waitFor(() => hook.bodies.length >= 2, 10_000, 'the second alert');
      expect(keys(hook)).toEqual([`${id}:new`, `${second}:new`]);
      expect(keys(hook)).not.toContain(`${before}:new`);

      // Removing the JSON channel stops its deliveries; the Slack one goes on.
      expect((await setChannels([{ type: 'webhook', url: slack.url, format: 'slack' }])).ok).toBe(true);
      const third = await transition();
      await waitFor(() => slack.bodies.length >= 3, 10_000, 'the Slack channel');
      expect((slack.bodies[2]?.body as { text: string }).text).toContain(third.slice(0, 10));
      expect(keys(hook)).toEqual([`${id}:new`, `${second}:new`]);
    } finally {
      await setChannels([]);
      await hook.close();
      await slack.close();
    }
  });

  it('a channel that cannot be reached is retried and logged by its name, never with the token in its URL', async () => {
    const token = 'tok-9f8e7d6c5b4a';
    const saved = await setChannels([{ type: 'webhook', url: `http://127.0.0.1:1/hooks/${token}?key=${token}`, name: 'down', timeoutSeconds: 1 }]);
    expect(saved.ok).toBe(true);
    try {
      await transition();
      const log = join(tmp.dir, 'logs', 'core.log');
      const text = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
      await waitFor(() => text().includes('alert not delivered'), 10_000, 'the failed delivery in the log');
      expect(text()).toContain('webhook down');
      expect(text()).not.toContain(token);
      expect(JSON.stringify(events.filter((e) => e.type !== 'settings-changed'))).not.toContain(token);
    } finally {
      await setChannels([]);
    }
  });

  it('a settings channel equal to one from the options (headless config) is sent to once, beside it', async () => {
    expect((await setChannels([{ type: 'webhook', url: `${fixed.url}/fixed`, format: 'json' }])).ok).toBe(true);
    try {
      const first = await transition();
      const second = await transition();
      await waitFor(() => keys(fixed).includes(`${second}:new`), 10_000, 'the config channel');
      const mine = keys(fixed).filter((k) => k === `${first}:new` || k === `${second}:new`);
      expect(mine).toEqual([`${first}:new`, `${second}:new`]);
    } finally {
      await setChannels([]);
    }
  });
});
