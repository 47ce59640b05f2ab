/**
 * `npm run watch -- --config <file> [--web] [--web-port <n>] [--check]` and the `teleporter-watch` bin:
 * the headless watcher. A bad config prints every problem with its line and exits 2 before anything
 * starts; SIGTERM / SIGINT stop polling, give the outbox a last drain and exit 0.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfigFile, type LoadedConfig } from './config-file';
import { DeliveryConsole } from './delivery-console';
import { count, describeWatches, watchCounts, watchNames } from './watch-summary';
import { describePlan } from './plan-summary';
import { readStartSecrets } from './api-key';
import { startHeadless, type HeadlessWatcher } from './watcher';
import { describeWatch, type LiveEvent } from './watch-liveness';
import { RENDERER_DIR } from './app-files';
import { OwnNodeSkipNews, OwnNodeStateChanges } from '../core';
import { visibleText } from '../shared/visible-text';
import { BASELINE_MAX_PAGES } from '../shared/policy';

const WATCH_USAGE = `Usage: teleporter-watch --config <file> [options]   (or: npm run watch -- --config <file>)

Watches Teleporter / ICM messages with no window: alerts through Alertmanager or webhooks, metrics
for Prometheus at /metrics. See docs/headless.md for the config file.

Options:
  --config <file>     the YAML config file (required)
  --check             validate the config file and exit (0: valid, 2: not)
  --web               also serve the user interface on 127.0.0.1 (its URL, with a token, is printed)
  --web-port <n>      port for --web (default: a free port)
  -h, --help          show this help`;

// Each console line is one line: labels, chain names and upstream reasons in it have their hidden characters shown.
const say = (line: string) => console.log(`teleporter-watch: ${visibleText(line)}`);
const warn = (line: string) => console.error(`teleporter-watch: ${visibleText(line)}`);

/** `--check`: the file is valid; what it watches, one line each. */
function printCheck(loaded: LoadedConfig): void {
  const c = loaded.config;
  say(`${loaded.file} is valid: it watches ${watchCounts(c)}, and has ${count(c.alerts?.channels.length ?? 0, 'alert channel')}.`);
  for (const line of describeWatches(c)) console.log(`  ${visibleText(line)}`);
  console.log(`  ${describePlan(c.plan, c.apiKey !== undefined)}`);
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      args: process.argv.slice(2),
      strict: true,
      allowPositionals: false,
      options: {
        config: { type: 'string' },
        check: { type: 'boolean' },
        web: { type: 'boolean' },
        'web-port': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (e) {
    console.error(`teleporter-watch: ${(e as Error).message}\n\n${WATCH_USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(WATCH_USAGE);
    return 0;
  }
  if (!values.config) {
    console.error(`teleporter-watch: --config <file> is required.\n\n${WATCH_USAGE}`);
    return 2;
  }
  const webPort = values['web-port'] === undefined ? undefined : Number(values['web-port']);
  if (webPort !== undefined && !(Number.isInteger(webPort) && webPort >= 0 && webPort <= 65535)) {
    console.error('teleporter-watch: --web-port must be a whole number between 0 and 65535.');
    return 2;
  }
  let loaded;
  try {
    loaded = loadConfigFile(values.config);
  } catch (e) {
    console.error(`teleporter-watch: ${visibleText((e as Error).message, { multiLine: true })}`);
    return e instanceof ConfigError ? 2 : 1;
  }
  if (values.check) {
    // The start's own checks of every secret it reads: --check never passes a file the start refuses.
    try {
      readStartSecrets(loaded.config, { resolvePath: loaded.resolvePath });
    } catch (e) {
      console.error(`teleporter-watch: ${visibleText((e as Error).message, { multiLine: true })}`);
      return 2;
    }
    printCheck(loaded);
    return 0;
  }

  let watcher: HeadlessWatcher | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: draining the outbox and shutting down...`);
    setTimeout(() => process.exit(1), 30_000).unref();
    void (watcher?.close() ?? Promise.resolve()).then(
      () => {
        say('stopped.');
        process.exit(0);
      },
      (e: unknown) => {
        console.error(`teleporter-watch: shutdown failed: ${visibleText((e as Error).message, { multiLine: true })}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  const onWatchLive = ({ watch, baselineMs }: LiveEvent) =>
    say(
      `live: ${describeWatch(watch)}: baseline done in ${(baselineMs / 1000).toFixed(1)} s; its changes alert from now on.` +
        (watch.historyCutAt === null
          ? ''
          : ` Its history was read back to ${new Date(watch.historyCutAt).toISOString()} only (${BASELINE_MAX_PAGES} pages): older open messages are not followed.`),
    );
  // Delivery failures on stderr too (the log file has every attempt), at most one line a minute per channel.
  const deliveries = new DeliveryConsole(warn);
  watcher = await startHeadless({
    loaded,
    onWatchLive,
    onAlertDelivery: deliveries.observe,
    // Each alert's fire and resolve, in the words Activity and core.log use.
    onAlert: say,
    ...(values.web ? { web: { rendererDir: RENDERER_DIR, ...(webPort !== undefined ? { port: webPort } : {}) } } : {}),
  });
  if (stopping) return 0;
  const w = watcher;
  say(
    `watching ${watchNames(loaded.config)} (added ${w.sync.added}, updated ${w.sync.updated}, removed ${w.sync.removed}); data folder ${w.dataDir}; API key from ${w.keyFrom}.`,
  );
  if (w.metrics) say(`metrics at ${w.metrics.url}`);
  const host = w.metrics ? new URL(w.metrics.url).hostname : '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(host) && !loaded.config.metrics?.bearerTokenFile) {
    say(`warning: /metrics listens on ${host} without metrics.bearerTokenFile: anyone who can reach it can read it.`);
  }
  if (w.web) say(`user interface at ${w.web.url}`);
  const all = w.liveness.states().length;
  const baselining = w.liveness.states().filter((s) => !s.live).length;
  // History is read silently: until a watch is live, its changes do not alert. `ready.` means every one is.
  if (baselining) say(`baselining ${baselining} of ${all} watches and feeds: their history is read without alerting; each is announced here when live.`);
  // Until then, a data source that keeps failing (a wrong key, no network) is why: say so, once per distinct problem.
  let lastProblem = '';
  const offStatus = w.core.onEvent((e) => {
    if (e.type !== 'poll-status' || !e.status.lastError || e.status.lastError.message === lastProblem) return;
    lastProblem = e.status.lastError.message;
    say(`baselining is held up: ${lastProblem}`);
  });
  // Each own node's state as it changes (down, wrong_chain, back to ok), once per change; what a node
  // sent that was skipped, and records the data source sent that were skipped, once per kind.
  const nodeStates = new OwnNodeStateChanges();
  const nodeSkips = new OwnNodeSkipNews();
  const recordSkips = new Set<string>();
  w.core.onEvent((e) => {
    if (e.type !== 'poll-status') return;
    if (e.status.ownNodes) for (const c of nodeStates.changes(e.status.ownNodes)) say(c.line);
    if (e.status.ownNodes) for (const line of nodeSkips.lines(e.status.ownNodes)) say(line);
    const skipped = e.status.skippedRecords;
    for (const reason of Object.keys(skipped?.byReason ?? {})) {
      if (recordSkips.has(reason)) continue;
      recordSkips.add(reason);
      say(`skipped records the data source sent: ${reason.replaceAll('_', ' ')} (never stored; polling goes on; later ones are counted in /metrics).`);
    }
  });
  void w.liveness.allLive.then(() => {
    offStatus();
    const n = w.liveness.states().length;
    const which = n === 0 ? 'Nothing needed a baseline; alerts are' : n === 1 ? 'Its one watch or feed is' : `All ${n} watches and feeds are`;
    if (!stopping) say(`ready. ${which} live.`);
  });
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(`teleporter-watch: ${visibleText(e instanceof Error ? e.message : String(e), { multiLine: true })}`);
    process.exit(1);
  },
);
