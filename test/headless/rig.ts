/** A headless watcher over a real local service (HTTP + SQLite), started from a real YAML file. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { loadConfigFile } from '../../src/headless/config-file';
import { startHeadless, type HeadlessWatcher } from '../../src/headless/watcher';
import { startLocalService, type SimulatedService } from '../../src/local-service';
import type { Clock } from '../../src/shared/clock';
import { JumpClock } from '../core/http-helpers';
import { waitFor } from '../support/wait-for';
import { startAlertmanager, startPrometheus } from './engines';

export const WATCHED = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';
export type Service = SimulatedService;

export function writeConfig(dir: string, config: Record<string, unknown>): string {
  const file = join(dir, 'config.yaml');
  writeFileSync(file, stringify(config));
  return file;
}

export function baseConfig(serviceUrl: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    dataDir: './data',
    dataSource: serviceUrl,
    network: 'mainnet',
    pollIntervalSeconds: 3600,
    plan: { cuPerMinute: 200_000, cuPerDay: 300_000_000 },
    notify: { new: true, left_pending: true, receipt_delivered: false, stuck: true },
    metrics: { listen: '127.0.0.1:0' },
    watches: [{ address: WATCHED, label: 'treasury' }],
    ...extra,
  };
}

let n = 0;
export async function startWatcher(
  dir: string,
  config: Record<string, unknown>,
  opts: { clock?: Clock; retryMs?: number; onAlert?: (line: string) => void } = {},
): Promise<HeadlessWatcher> {
  const w = await startHeadless({
    loaded: loadConfigFile(writeConfig(dir, config)),
    keychainService: `tw-headless-test-${process.pid}-${++n}`,
    alertRetryBaseMs: opts.retryMs ?? 200,
    ...(opts.clock ? { clock: opts.clock } : {}),
    ...(opts.onAlert ? { onAlert: opts.onAlert } : {}),
  });
  await waitFor(
    async () => {
      const r = await w.core.invoke('listWatches', undefined);
      return r.ok && (r.value as { baselinePending: boolean }[]).every((x) => !x.baselinePending);
    },
    30_000,
    'the baseline',
  );
  return w;
}

export const tempDir = (prefix: string) => mkdtempSync(join(tmpdir(), prefix));

export async function pollNow(w: HeadlessWatcher): Promise<void> {
  const r = await w.core.invoke('pollNow', undefined);
  if (!r.ok) throw new Error(r.error.message);
}

/** Sends a message from the watched address that will not be delivered soon (so `new` is its only fresh transition). */
export function sendWatched(svc: Service, outcome: 'normal' | 'undelivered' = 'undelivered'): string {
  return svc.simulator.send({ network: 'mainnet', from: WATCHED, outcome, deliveryDelayMs: 3600_000 });
}

export interface Receiver {
  url: string;
  bodies: { path: string; headers: IncomingMessage['headers']; body: unknown }[];
  /** ok: 200; fail: 500; hang: never answers. */
  mode: 'ok' | 'fail' | 'hang';
  /** Answers (and records) this long after the request arrived. */
  delayMs: number;
  close(): Promise<void>;
}

/** An HTTP server in the test that records every POST (a webhook target or Alertmanager's webhook receiver). */
export async function startReceiver(port = 0): Promise<Receiver> {
  const r: Receiver = { url: '', bodies: [], mode: 'ok', delayMs: 0, close: async () => undefined };
  const server: Server = createServer((req, res) => {
    let text = '';
    req.on('data', (d: Buffer) => (text += d.toString()));
    req.on('end', () => setTimeout(answer, r.delayMs));
    const answer = () => {
      if (r.mode === 'hang') return;
      if (r.mode === 'fail') {
        res.writeHead(500).end('receiver broken');
        return;
      }
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        /* keep text */
      }
      r.bodies.push({ path: req.url ?? '/', headers: req.headers, body });
      res.writeHead(200).end('ok');
    };
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  r.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  r.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return r;
}

/** The deploy rules, as Prometheus loads them in production. */
export const RULES = join(__dirname, '..', '..', 'deploy', 'rules', 'teleporter-watch.rules.yml');

export interface AmAlert {
  labels: Record<string, string>;
  status: { state: string };
  endsAt: string;
}

/**
 * The real Alertmanager and the real Prometheus (with the deploy rules, scraping the watcher) around a
 * headless watcher, as the relayer alerts' end-to-end tests use them: each is stopped by `cleanups`.
 */
export const alertStack = {
  /** Alertmanager grouping each episode on its own within a second; every group goes to `receiverUrl` (resolves included) when given. */
  async alertmanager(cleanups: (() => Promise<void>)[], receiverUrl?: string) {
    const receiver = receiverUrl
      ? `  receiver: hook\n  group_by: ['alertname', 'episode']\n  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 24h\nreceivers:\n  - name: hook\n    webhook_configs:\n      - url: ${receiverUrl}/alerts\n        send_resolved: true\n`
      : `  receiver: none\n  group_by: ['alertname', 'episode']\n  group_wait: 1s\n  group_interval: 1s\n  repeat_interval: 24h\nreceivers:\n  - name: none\n`;
    const am = await startAlertmanager(`route:\n${receiver}`);
    cleanups.push(() => am.stop());
    return {
      url: am.url,
      /** The alerts Alertmanager holds under this name (any state). */
      alerts: async (alertname: string) =>
        ((await (await fetch(`${am.url}/api/v2/alerts`)).json()) as AmAlert[]).filter((a) => a.labels.alertname === alertname),
    };
  },
  /**
   * A quiet demo world for one relayer alert end to end: a clock 2 h back (every time the watcher pushes,
   * an episode's start or its resolve, is then in Alertmanager's past, so a resolve ends the alert at
   * once), the local service on it, a webhook receiver and Alertmanager sending every group to it.
   */
  async world(cleanups: (() => Promise<void>)[]) {
    const clock = new JumpClock(Date.now() - 2 * 3_600_000);
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 10 });
    cleanups.push(() => svc.close());
    const hook = await startReceiver();
    cleanups.push(() => hook.close());
    const am = await alertStack.alertmanager(cleanups, hook.url);
    return { clock, svc, hook, am };
  },
  /** Prometheus evaluating the deploy rules every second over the watcher's /metrics. */
  async prometheus(cleanups: (() => Promise<void>)[], w: HeadlessWatcher) {
    const prom = await startPrometheus(
      `global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\nrule_files: ['${RULES}']\nscrape_configs:\n  - job_name: teleporter-watch\n    static_configs:\n      - targets: ['${new URL(w.metrics!.url).host}']\n`,
    );
    cleanups.push(() => prom.stop());
    return {
      url: prom.url,
      /** The labels of the rule's alerts firing now. */
      firing: async (alertname: string) => {
        const r = (await (await fetch(`${prom.url}/api/v1/alerts`)).json()) as { data: { alerts: { labels: Record<string, string>; state: string }[] } };
        return r.data.alerts.filter((a) => a.state === 'firing' && a.labels.alertname === alertname).map((a) => a.labels);
      },
    };
  },
};
