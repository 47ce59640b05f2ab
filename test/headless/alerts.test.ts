import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { freePort } from './engines';
import { waitFor } from '../support/wait-for';
import { baseConfig, pollNow, sendWatched, startReceiver, startWatcher, tempDir, WATCHED, type Receiver, type Service } from './rig';

let svc: Service;
beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 7 });
});
afterAll(async () => {
  await svc.close();
});

const keysOf = (r: Receiver) => r.bodies.map((b) => (b.body as { key?: string }).key ?? (b.headers['idempotency-key'] as string));
/** The sum of a metric's samples whose labels contain `labels` (scraped from /metrics). */
const metricValue = async (url: string, name: string, labels = '') => {
  const text = await (await fetch(url)).text();
  return text
    .split('\n')
    .filter((l) => (l.startsWith(`${name}{`) || l.startsWith(`${name} `)) && l.includes(labels))
    .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(' ') + 1)), 0);
};

describe('alert channels from the outbox', () => {
  it('sends each transition once to a JSON webhook and a Slack-compatible webhook, with a link back', async () => {
    const json = await startReceiver();
    const slack = await startReceiver();
    const dir = tempDir('tw-alerts-');
    const w = await startWatcher(
      dir,
      baseConfig(svc.url, {
        alerts: {
          messageUrl: 'https://watch.example/m/{messageId}',
          channels: [
            { type: 'webhook', url: `${json.url}/hook?token=secret`, format: 'json' },
            { type: 'webhook', url: `${slack.url}/slack`, format: 'slack' },
          ],
        },
      }),
    );
    try {
      const id = sendWatched(svc);
      await pollNow(w);
      await waitFor(() => json.bodies.length >= 1 && slack.bodies.length >= 1, 10_000, 'both webhooks');
      expect(json.bodies[0]?.body).toMatchObject({
        key: `${id}:new`,
        messageId: id,
        kind: 'new',
        network: 'mainnet',
        watch: 'treasury',
        link: `https://watch.example/m/${id}`,
        title: 'New message',
      });
      expect((json.bodies[0]?.body as { route: string }).route).toMatch(/^C-Chain → | → /);
      expect(json.bodies[0]?.headers['idempotency-key']).toBe(`${id}:new`);
      expect(json.bodies[0]?.path).toBe('/hook?token=secret');
      expect((slack.bodies[0]?.body as { text: string }).text).toMatch(new RegExp(`New message.*treasury[\\s\\S]*https://watch.example/m/${id}`));
      // Another cycle with nothing new sends nothing more.
      await pollNow(w);
      await waitFor(async () => (await w.core.invoke('getPollStatus', undefined)).ok);
      expect(keysOf(json)).toEqual([`${id}:new`]);
      expect(slack.bodies).toHaveLength(1);
    } finally {
      await w.close();
      await json.close();
      await slack.close();
    }
  });

  it('a webhook answering 500, then hanging, loses nothing: polling goes on, and each alert arrives once it recovers', async () => {
    const hook = await startReceiver();
    hook.mode = 'fail';
    const dir = tempDir('tw-alerts-');
    const w = await startWatcher(dir, baseConfig(svc.url, { alerts: { channels: [{ type: 'webhook', url: hook.url, timeoutSeconds: 1 }] } }));
    try {
      const ids = [sendWatched(svc), sendWatched(svc)];
      await pollNow(w);
      const metrics = w.metrics!.url;
      await waitFor(
        async () => (await metricValue(metrics, 'teleporter_watch_alert_deliveries_total', 'outcome="failed"')) >= 2 || undefined,
        10_000,
        'failed deliveries',
      );
      expect(await metricValue(metrics, 'teleporter_watch_alerts_pending')).toBe(2);
      hook.mode = 'hang';
      ids.push(sendWatched(svc));
      await pollNow(w);
      const status = await w.core.invoke('getPollStatus', undefined);
      expect(status.ok && (status.value as { lastError: unknown }).lastError).toBeFalsy();
      await waitFor(async () => (await metricValue(metrics, 'teleporter_watch_alerts_pending')) === 3 || undefined, 10_000, 'three pending');
      hook.mode = 'ok';
      await waitFor(() => hook.bodies.length >= 3 || undefined, 20_000, 'the retries');
      await waitFor(async () => (await metricValue(metrics, 'teleporter_watch_alerts_pending')) === 0 || undefined, 10_000, 'nothing pending');
      expect(keysOf(hook).sort()).toEqual(ids.map((id) => `${id}:new`).sort());
    } finally {
      await w.close();
      await hook.close();
    }
  });

  it('SIGTERM-style close with the receiver down keeps the alert; a restart on the same folder sends it once and repeats nothing', async () => {
    const port = await freePort();
    const dir = tempDir('tw-alerts-');
    const config = baseConfig(svc.url, { alerts: { channels: [{ type: 'webhook', name: 'ops', url: `http://127.0.0.1:${port}/hook`, timeoutSeconds: 1 }] } });
    let w = await startWatcher(dir, config);
    const first = sendWatched(svc);
    await pollNow(w);
    await waitFor(async () => (await metricValue(w.metrics!.url, 'teleporter_watch_alerts_pending')) === 1 || undefined, 10_000, 'one pending');
    await w.close();

    const hook = await startReceiver(port);
    try {
      w = await startWatcher(dir, config);
      expect(w.sync).toEqual({ added: 0, updated: 0, removed: 0 });
      await waitFor(() => hook.bodies.length >= 1 || undefined, 10_000, 'the held alert');
      await pollNow(w);
      const second = sendWatched(svc);
      await pollNow(w);
      await waitFor(() => hook.bodies.length >= 2 || undefined, 10_000, 'the new alert');
      await w.close();
      // And once more: a restart with nothing new sends nothing.
      w = await startWatcher(dir, config);
      await pollNow(w);
      await w.close();
      expect(keysOf(hook)).toEqual([`${first}:new`, `${second}:new`]);
    } finally {
      await w.close();
      await hook.close();
    }
  });

  it('close (what SIGTERM runs) waits for the alert being sent to a slow receiver', async () => {
    const hook = await startReceiver();
    const dir = tempDir('tw-alerts-');
    const w = await startWatcher(dir, baseConfig(svc.url, { alerts: { channels: [{ type: 'webhook', url: hook.url }] } }));
    hook.delayMs = 700;
    const id = sendWatched(svc);
    await pollNow(w);
    await w.close();
    try {
      expect(keysOf(hook)).toEqual([`${id}:new`]);
    } finally {
      await hook.close();
    }
  });

  it('an alert for a watch the config does not ask for is not sent', async () => {
    const hook = await startReceiver();
    const dir = tempDir('tw-alerts-');
    const w = await startWatcher(
      dir,
      baseConfig(svc.url, {
        watches: [{ address: WATCHED, label: 'quiet', notify: { new: false } }],
        alerts: { channels: [{ type: 'webhook', url: hook.url }] },
      }),
    );
    try {
      sendWatched(svc);
      await pollNow(w);
      const t = await w.core.invoke('listTransitions', {});
      expect(t.ok && (t.value as { items: unknown[] }).items.length).toBeGreaterThan(0);
      await pollNow(w);
      expect(hook.bodies).toHaveLength(0);
    } finally {
      await w.close();
      await hook.close();
    }
  });
});
