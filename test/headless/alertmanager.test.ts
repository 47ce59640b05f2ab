import { afterEach, beforeAll, afterAll, describe, expect, it } from 'vitest';
import type { HeadlessWatcher } from '../../src/headless/watcher';
import { startLocalService } from '../../src/local-service';
import { ALERTMANAGER, freePort, missing, startAlertmanager } from './engines';
import { waitFor } from '../support/wait-for';
import { baseConfig, pollNow, sendWatched, startReceiver, startWatcher, tempDir, type Receiver, type Service } from './rig';

const skip = missing(ALERTMANAGER);

/** Alertmanager routing watcher alerts to the test's webhook receiver, one notification per message and kind. */
const amConfig = (receiverUrl: string) => `route:
  receiver: hook
  group_by: ['alertname', 'messageId', 'kind']
  group_wait: 1s
  group_interval: 2s
  repeat_interval: 24h
receivers:
  - name: hook
    webhook_configs:
      - url: ${receiverUrl}/alerts
        send_resolved: false
`;

/** Every alert the receiver got, as "<messageId>:<kind>", one entry per notification it was in. */
const received = (r: Receiver) =>
  r.bodies.flatMap((b) =>
    ((b.body as { alerts?: { labels: Record<string, string>; status: string }[] }).alerts ?? []).map((a) => `${a.labels.messageId}:${a.labels.kind}`),
  );

const pending = async (w: HeadlessWatcher) => {
  const text = await (await fetch(w.metrics!.url)).text();
  return Number(/^teleporter_watch_alerts_pending (\S+)$/m.exec(text)?.[1]);
};

/**
 * Resolves once every alert group has been flushed twice more: each flush asks Alertmanager's
 * notification log whether the group was already sent (one query per group), so a resend would have
 * happened by then. A positive condition instead of "wait a few group intervals".
 */
async function twoMoreFlushes(amUrl: string, groups: number): Promise<void> {
  const queries = async () => Number(/^alertmanager_nflog_queries_total (\S+)$/m.exec(await (await fetch(`${amUrl}/metrics`)).text())?.[1]);
  const from = await queries();
  await waitFor(async () => (await queries()) >= from + 2 * groups, 20_000, 'two more flushes of every alert group');
}

describe.skipIf(skip)('two replicas, one Alertmanager, one page', () => {
  let svc: Service;
  const running: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    svc = await startLocalService({ rate: 0, seed: 5 });
  });
  afterAll(async () => {
    await svc.close();
  });
  afterEach(async () => {
    for (const r of running.splice(0).reverse()) await r.stop();
  });

  async function replicas(amUrl: string): Promise<HeadlessWatcher[]> {
    const ws: HeadlessWatcher[] = [];
    for (let i = 0; i < 2; i++) {
      const w = await startWatcher(
        tempDir('tw-replica-'),
        baseConfig(svc.url, { alerts: { channels: [{ type: 'alertmanager', url: amUrl, timeoutSeconds: 2 }] } }),
      );
      running.push({ stop: () => w.close() });
      ws.push(w);
    }
    return ws;
  }

  it('both replicas push the same alerts with the same labels; the receiver gets each alert exactly once', async () => {
    const hook = await startReceiver();
    running.push({ stop: () => hook.close() });
    const am = await startAlertmanager(amConfig(hook.url));
    running.push(am);
    const ws = await replicas(am.url);
    const ids = [sendWatched(svc), sendWatched(svc), sendWatched(svc)];
    for (const w of ws) await pollNow(w);
    const want = ids.map((id) => `${id}:new`).sort();
    await waitFor(async () => (await Promise.all(ws.map(pending))).every((n) => n === 0), 15_000, 'both replicas to deliver');
    await waitFor(() => new Set(received(hook)).size === want.length || undefined, 30_000, 'the receiver');
    // Alertmanager merged the replicas' pushes into one alert per message and kind.
    const alerts = (await (await fetch(`${am.url}/api/v2/alerts`)).json()) as {
      labels: Record<string, string>;
      annotations: Record<string, string>;
      generatorURL: string;
    }[];
    expect(alerts.map((a) => `${a.labels.messageId}:${a.labels.kind}`).sort()).toEqual(want);
    expect(alerts[0]?.labels).toMatchObject({ alertname: 'TeleporterMessage_new', kind: 'new', watch: 'treasury', network: 'mainnet' });
    expect(alerts[0]?.labels.route).toMatch(/ → /);
    expect(alerts[0]?.generatorURL).toMatch(new RegExp(`/v1/teleporter/messages/${alerts[0]?.labels.messageId}$`));
    // Every group flushed again, twice: nothing is sent again.
    await twoMoreFlushes(am.url, want.length);
    expect(received(hook).sort()).toEqual(want);
  }, 90_000);

  it('with Alertmanager unreachable and then its receiver down for a while, nothing is lost and nothing doubles', async () => {
    const amPort = await freePort();
    const hookPort = await freePort();
    const ws = await replicas(`http://127.0.0.1:${amPort}`);
    const early = [sendWatched(svc), sendWatched(svc)];
    for (const w of ws) await pollNow(w);
    // Nobody listens yet: the alerts wait in each replica's outbox.
    await waitFor(async () => (await Promise.all(ws.map(pending))).every((n) => n === 2) || undefined, 15_000, 'held alerts');
    const status = await ws[0]!.core.invoke('getPollStatus', undefined);
    expect(status.ok && (status.value as { lastSuccessAt: number | null }).lastSuccessAt).toBeGreaterThan(0);

    let hook = await startReceiver(hookPort);
    const am = await startAlertmanager(amConfig(`http://127.0.0.1:${hookPort}`), { port: amPort });
    running.push(am);
    await waitFor(async () => (await Promise.all(ws.map(pending))).every((n) => n === 0) || undefined, 30_000, 'the retries to reach Alertmanager');
    await waitFor(() => new Set(received(hook)).size === 2 || undefined, 30_000, 'the held alerts at the receiver');
    const firstBatch = received(hook);

    // The receiver goes down; a new alert reaches Alertmanager, which keeps trying.
    await hook.close();
    const late = sendWatched(svc);
    for (const w of ws) await pollNow(w);
    await waitFor(async () => (await Promise.all(ws.map(pending))).every((n) => n === 0) || undefined, 15_000, 'the push of the late alert');
    hook = await startReceiver(hookPort);
    running.push({ stop: () => hook.close() });
    await waitFor(() => received(hook).includes(`${late}:new`) || undefined, 60_000, 'the late alert after the receiver is back');
    await twoMoreFlushes(am.url, 3);
    expect([...firstBatch, ...received(hook)].sort()).toEqual([...early, late].map((id) => `${id}:new`).sort());
  }, 150_000);
});
