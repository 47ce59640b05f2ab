/**
 * deploy/demo.yaml, the try-it-locally config: its addresses and relayers are the desktop demo's (the
 * service started as the Electron shell and the web host start it), and `teleporter-watch --config` on
 * it (only the metrics port changed, so the test never collides) sees their traffic: the busy address's
 * messages, the relayers' deliveries on the watched route, and transitions once it is live.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { afterAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { localServiceSpawnSpec } from '../../src/host/local-service-spawn';
import { serviceSpawnSpec } from '../../src/headless/app-files';
import { waitFor } from '../support/wait-for';
import { RETIRED_EVENT_WORDS } from '../../src/shared/vocabulary';
import { TRANSITION_KINDS } from '../../src/shared/schemas';
import { tempDir } from './rig';

const ROOT = join(__dirname, '..', '..');
const DEMO = join(ROOT, 'deploy', 'demo.yaml');
const BIN = join(ROOT, 'bin', 'teleporter-watch.cjs');
const demo = load(readFileSync(DEMO, 'utf8')) as {
  watches: { address: string; label: string }[];
  relayers: { address: string; label: string }[];
  routes: { label: string }[];
};

const seedOf = (args: string[]) => args[args.indexOf('--seed') + 1];

const stops: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const s of stops.reverse()) await s();
});

describe('deploy/demo.yaml', () => {
  it("names the desktop demo's busy addresses and relayer personas, and every shell starts that world", async () => {
    // As src/main/shell.ts starts it: no --seed, no --rate.
    const desktop = await startLocalService({});
    stops.push(() => desktop.close());
    for (const w of demo.watches) expect(desktop.simulator.hotAddresses).toContain(w.address);
    const personas = await (await fetch(`${desktop.url}/_local/info`)).json();
    const relayers = (personas as { demoRelayers: { address: string; name: string }[] }).demoRelayers;
    for (const r of demo.relayers) expect(relayers).toContainEqual(expect.objectContaining({ address: r.address, name: r.label }));
    // The web host and the headless watcher start the same seed (the desktop's default).
    const host = localServiceSpawnSpec();
    expect(host.kind === 'spawn' && seedOf(host.args)).toBe(String(desktop.simulator.seed));
    const spec = serviceSpawnSpec();
    expect(spec.kind === 'spawn' && seedOf(spec.args)).toBe(String(desktop.simulator.seed));
  }, 30_000);

  it('runs as shipped: the watched address, relayers and route see traffic, and transitions follow once live', async () => {
    const dir = tempDir('tw-demo-');
    const shipped = readFileSync(DEMO, 'utf8');
    expect(shipped).toContain('listen: 127.0.0.1:9465');
    const file = join(dir, 'demo.yaml');
    writeFileSync(file, shipped.replace('listen: 127.0.0.1:9465', 'listen: 127.0.0.1:0'));

    const check = spawn(process.execPath, [BIN, '--config', file, '--check'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let checked = '';
    check.stdout.on('data', (d: Buffer) => (checked += d.toString()));
    expect(await new Promise((resolve) => check.on('exit', resolve))).toBe(0);
    expect(checked).toMatch(/it watches 1 address, 2 relayers, 1 route and 0 feeds/);
    expect(checked).toMatch(/route +c-chain-to-beam \(C-Chain → Beam\) on mainnet/);

    const child = spawn(process.execPath, [BIN, '--config', file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    stops.push(async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    });

    await waitFor(() => /ready\./.test(out) || child.exitCode !== null || undefined, 60_000, 'ready');
    expect(out).toMatch(
      /watching 1 address \(demo-busy\), 2 relayers \(Swift, Blinker\), 1 route \(c-chain-to-beam\) and 0 feeds \(added 4, updated 0, removed 0\)/,
    );
    const url = /metrics at (\S+)/.exec(out)?.[1] as string;
    const scrape = async () => (await fetch(url)).text();
    const sum = (text: string, re: RegExp) => [...text.matchAll(re)].reduce((s, m) => s + Number(m[1]), 0);
    const transitions = (text: string) => sum(text, /^teleporter_watch_transitions_total\{[^}]*\} (\S+)$/gm);
    const atReady = transitions(await scrape());

    const text = await waitFor(
      async () => {
        const t = await scrape();
        return transitions(t) > atReady && /relayer_deliveries_total\{relayer="Swift",route="c-chain-to-beam"\} [1-9]/.test(t) ? t : undefined;
      },
      90_000,
      'new transitions and Swift deliveries on the watched route',
    );
    expect(sum(text, /^teleporter_watch_tracked_messages_by_watch\{watch="demo-busy",status="[^"]+"\} (\S+)$/gm)).toBeGreaterThan(0);
    expect(text).toMatch(/^teleporter_watch_route_pending_messages\{route="c-chain-to-beam"\} \d+$/m);
    // The demo day: nothing on its route is held pending for good, and its history's failed executions were retried.
    expect(text).toMatch(/^teleporter_watch_route_backlogged\{route="c-chain-to-beam"\} 0$/m);
    expect(text).toMatch(/^teleporter_watch_route_failed_executions_alert\{route="c-chain-to-beam"\} 0$/m);
    expect(text).toMatch(/^teleporter_watch_relayer_silent\{relayer="Blinker"\} [01]$/m);
    expect(Number(/^teleporter_watch_last_successful_poll_timestamp_seconds (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    // One route, one label: every series that names the watched route (its rewards and failed executions too) names it by its watch's label.
    const withRewards = await waitFor(
      async () => {
        const t = await scrape();
        return /^teleporter_watch_relayer_rewards_(paid|owed)\{relayer="Swift",route="[^"]+"/m.test(t) ? t : undefined;
      },
      60_000,
      "Swift's rewards on the watched route",
    );
    // (The relayer and route-watch series; the messages' own series name every route their messages take.)
    const watchedRouteLabels = [...withRewards.matchAll(/^teleporter_watch_(?:relayer|route)_\w+\{[^}]*route="([^"]*)"/gm)].map((m) => m[1]);
    expect(watchedRouteLabels.length).toBeGreaterThan(3);
    expect(new Set(watchedRouteLabels)).toEqual(new Set(['c-chain-to-beam']));
    // One vocabulary in what a person reads of the output: no help text says a retired word for an event,
    // and the transitions are labelled by the one set of kinds the app uses everywhere.
    const help = [...withRewards.matchAll(/^# HELP \S+ (.*)$/gm)].map((m) => m[1]!.toLowerCase());
    expect(help.length).toBeGreaterThan(20);
    expect(help.filter((h) => RETIRED_EVENT_WORDS.some((w) => h.includes(w)))).toEqual([]);
    const kinds = [...withRewards.matchAll(/^teleporter_watch_transitions_total\{kind="([^"]+)"/gm)].map((m) => m[1]);
    expect(kinds.length).toBeGreaterThan(0);
    expect(kinds.filter((k) => !(TRANSITION_KINDS as readonly string[]).includes(k!))).toEqual([]);
  }, 180_000);
});
