import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/headless/config-file';
import { missing, PROMTOOL } from './engines';

const DEPLOY = join(__dirname, '..', '..', 'deploy');
const promtool = (args: string[], cwd = DEPLOY) => execFileSync(PROMTOOL, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/** `promtool test rules` on the deploy rules with their tests' series broken as `[from, to]` says; what it printed (it fails). */
function brokenRulesTest(breaks: [string, string][]): string {
  const dir = mkdtempSync(join(tmpdir(), 'tw-rules-'));
  copyFileSync(join(DEPLOY, 'rules', 'teleporter-watch.rules.yml'), join(dir, 'teleporter-watch.rules.yml'));
  const tests = readFileSync(join(DEPLOY, 'rules', 'teleporter-watch.test.yml'), 'utf8');
  writeFileSync(
    join(dir, 't.yml'),
    breaks.reduce((t, [from, to]) => t.replaceAll(from, to), tests),
  );
  try {
    promtool(['test', 'rules', 't.yml'], dir);
    return '';
  } catch (e) {
    return String((e as { stdout?: string }).stdout) + String((e as { stderr?: string }).stderr);
  }
}

describe('deploy/ files', () => {
  const skip = missing(PROMTOOL);
  it.skipIf(skip)('promtool accepts the scrape config and the alert rules', () => {
    expect(promtool(['check', 'config', 'prometheus.yml'])).toMatch(/SUCCESS: prometheus\.yml is valid/);
    expect(promtool(['check', 'rules', 'rules/teleporter-watch.rules.yml'])).toMatch(/SUCCESS: 14 rules found/);
  });

  it.skipIf(skip)('promtool test rules: the stuck rule fires on a recorded series (and the others as written)', () => {
    expect(promtool(['test', 'rules', 'teleporter-watch.test.yml'], join(DEPLOY, 'rules'))).toMatch(/SUCCESS/);
  });

  it.skipIf(skip)('promtool test rules fails when the stuck rule would not fire (the test can fail)', () => {
    const out = brokenRulesTest([["values: '0 0 0 1 1 0'", "values: '0 0 0 0 0 0'"]]);
    expect(out).toMatch(/FAILED[\s\S]*alertname: TeleporterMessageStuck/);
  });

  it.skipIf(skip)('promtool test rules fails when the relayer rules would not fire (the test can fail)', () => {
    const out = brokenRulesTest([
      ["values: '0 0 1 1 1 0 0'", "values: '0 0 0 0 0 0 0'"],
      ["values: '0 0 0 1 1 1 0'", "values: '0 0 0 0 0 0 0'"],
      ["values: '0 1 1 0 0 0 0'", "values: '0 0 0 0 0 0 0'"],
      ["values: '0 0 1 1 0 0'", "values: '0 0 0 0 0 0'"],
    ]);
    expect(out).toMatch(/alertname: RelayerSilent/);
    expect(out).toMatch(/alertname: RouteBacklog/);
    expect(out).toMatch(/alertname: TeleporterWatchRelayerFuelLow/);
    expect(out).toMatch(/alertname: TeleporterWatchRouteFailedExecutions/);
  });

  it.skipIf(skip)("promtool test rules fails when the relayer's own-metrics rules would not fire (the test can fail)", () => {
    const out = brokenRulesTest([
      ["values: '0 1 1 1 0 0 0'", "values: '0x6'"],
      ["values: '0 0 1 1 1 1 0 0'", "values: '0x7'"],
      ["values: '1 1 0x11 1 1'", "values: '1x15'"],
    ]);
    expect(out).toMatch(/alertname: TeleporterWatchRelayerClaimsUnseen/);
    expect(out).toMatch(/alertname: TeleporterWatchRelayerFailuresClimbing/);
    expect(out).toMatch(/alertname: TeleporterWatchRelayerMetricsUnread/);
  });

  it.skipIf(skip)('promtool test rules fails when the source-down and chain-down rules would not fire (the test can fail)', () => {
    const out = brokenRulesTest([
      ["values: '1 1 0 0 1 1'", "values: '1 1 1 1 1 1'"],
      ["values: '1 1 0 1 1 1'", "values: '1 1 1 1 1 1'"],
      ["values: '1 1 1 0 0 1'", "values: '1 1 1 1 1 1'"],
    ]);
    expect(out).toMatch(/alertname: TeleporterWatchSourceDown/);
    expect(out).toMatch(/alertname: TeleporterWatchChainDown/);
  });

  it.skipIf(missing('/usr/bin/amtool'))('amtool accepts the Alertmanager example', () => {
    expect(execFileSync('/usr/bin/amtool', ['check-config', join(DEPLOY, 'alertmanager.yml')], { encoding: 'utf8' })).toMatch(/SUCCESS/);
  });

  it('the example config is valid, and the dashboard only graphs metrics the watcher exports', async () => {
    const { config } = loadConfigFile(join(DEPLOY, 'config.example.yaml'));
    expect(config.alerts?.channels.map((c) => c.type)).toEqual(['alertmanager', 'webhook']);
    const dashboard = JSON.parse(readFileSync(join(DEPLOY, 'grafana-dashboard.json'), 'utf8')) as { panels: { targets: { expr: string }[] }[] };
    const exprs = dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr));
    const names = new Set(exprs.flatMap((e) => [...e.matchAll(/teleporter_watch_[a-z_]+/g)].map((m) => m[0].replace(/_(bucket|sum|count)$/, ''))));
    const { CoreMetrics } = await import('../../src/core/metrics/core-metrics');
    const metrics = new CoreMetrics(
      {
        queries: {
          trackedByRoute: () => [],
          trackedByWatchLabel: () => [],
          stuckByRoute: () => [],
          deliverySeconds: () => null,
          trackingEnded: () => [],
        } as never,
      },
      { processMetrics: true },
    );
    const { registerLiveGauges } = await import('../../src/core/metrics/live-gauges');
    registerLiveGauges(metrics.registry, {
      pollStatus: () => ({ lastSuccessAt: null, watching: 0 }) as never,
      rateLimitRemaining: () => ({ host: 'h', remaining: 1 }),
      alertsPending: () => 0,
      alertChannels: () => [],
    });
    const { RelayerMetrics } = await import('../../src/core/metrics/relayer-metrics');
    new RelayerMetrics(metrics.registry, () => 0);
    const { FuelMetrics } = await import('../../src/core/metrics/fuel-metrics');
    new FuelMetrics(metrics.registry);
    const exported = new Set((await metrics.registry.getMetricsAsJSON()).map((m) => m.name));
    for (const n of names) expect(exported, n).toContain(n);
    const unit = readFileSync(join(DEPLOY, 'teleporter-watch.service'), 'utf8');
    expect(unit).toMatch(/ExecStart=.*teleporter-watch\.cjs --config/);
  });
});
