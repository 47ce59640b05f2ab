/**
 * `npm run devnet`: two local anvil chains with the messenger, a relayer between them and some
 * traffic; prints the settings to paste into "Your own nodes" and writes a headless config. Ctrl+C
 * (or SIGTERM) stops the traffic, the relayer and both nodes, then exits 0.
 */
import { writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { DEVNET_DEFAULTS, startDevnet, type Devnet } from './devnet';
import { relayerConfigJson } from './relayer-config-file';
import { headlessYaml, pasteLines } from './settings';

const DEVNET_USAGE = `Usage: npm run devnet -- [options]

Two local chains (anvil) with a TeleporterMessenger stand-in, a relayer between them and a message
every few seconds, all on 127.0.0.1, to try "Your own nodes" (docs/own-node.md). Ctrl+C stops it all.

Options:
  --ports <a>,<b>      RPC ports of the two chains (default ${DEVNET_DEFAULTS.ports.join(',')}; 0 for any free port)
  --every <seconds>    a new message this often, alternating direction (default ${DEVNET_DEFAULTS.trafficEveryMs / 1000}; 0: none)
  --block-time <s>     seconds between blocks (default ${DEVNET_DEFAULTS.blockTime}; 0: a block per transaction)
  --out <file>         where to write the headless config (default devnet.yaml)
  --metrics-port <n>   the /metrics port that config gives the watcher (default 9466)
  --relayer-config <file>  where to write the relayer's config, in the ICM relayer's format (default devnet-relayer.json)
  --relayer-metrics-port <n>
                       where the relayer serves its own relayer-style metrics on 127.0.0.1
                       (default ${DEVNET_DEFAULTS.relayerMetricsPort}; 0: any free port)
  --fail-every <n>     the execution of one delivery in n fails, to have a retry call to try
                       (default ${DEVNET_DEFAULTS.failEvery}: none)
  -h, --help           this text`;

const say = (line: string) => console.log(`devnet: ${line}`);

function port(raw: string, what: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`${what} must be a whole number from 0 to 65535 (got "${raw}").`);
  return n;
}

function seconds(raw: string, what: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || n < 0 || n > 3600) throw new Error(`${what} must be a number of seconds from 0 to 3600 (got "${raw}").`);
  return n;
}

function count(raw: string, what: string): number {
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isInteger(n) || n < 0 || n > 1000) throw new Error(`${what} must be a whole number from 0 to 1000 (got "${raw}").`);
  return n;
}

function options(argv: string[]) {
  const { values } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: false,
    options: {
      ports: { type: 'string' },
      every: { type: 'string' },
      'block-time': { type: 'string' },
      out: { type: 'string' },
      'metrics-port': { type: 'string' },
      'relayer-config': { type: 'string' },
      'relayer-metrics-port': { type: 'string' },
      'fail-every': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const ports = (values.ports ?? DEVNET_DEFAULTS.ports.join(',')).split(',');
  if (ports.length !== 2) throw new Error('--ports takes two ports, like 9545,9546.');
  const p = ports.map((x, i) => port(x, `--ports (chain ${i + 1})`)) as [number, number];
  if (p[0] !== 0 && p[0] === p[1]) throw new Error('--ports: the two chains need different ports.');
  return {
    help: values.help === true,
    ports: p,
    trafficEveryMs: Math.round(seconds(values.every ?? String(DEVNET_DEFAULTS.trafficEveryMs / 1000), '--every') * 1000),
    blockTime: seconds(values['block-time'] ?? String(DEVNET_DEFAULTS.blockTime), '--block-time'),
    out: resolve(values.out ?? 'devnet.yaml'),
    metricsPort: port(values['metrics-port'] ?? '9466', '--metrics-port'),
    relayerConfig: resolve(values['relayer-config'] ?? 'devnet-relayer.json'),
    relayerMetricsPort: port(values['relayer-metrics-port'] ?? String(DEVNET_DEFAULTS.relayerMetricsPort), '--relayer-metrics-port'),
    failEvery: count(values['fail-every'] ?? String(DEVNET_DEFAULTS.failEvery), '--fail-every'),
  };
}

async function main(): Promise<number> {
  let o;
  try {
    o = options(process.argv.slice(2));
  } catch (e) {
    console.error(`devnet: ${(e as Error).message}\n\n${DEVNET_USAGE}`);
    return 2;
  }
  if (o.help) {
    console.log(DEVNET_USAGE);
    return 0;
  }
  say('starting two anvil chains and deploying the messenger (compiling it with solc takes a few seconds)...');
  let devnet: Devnet | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: stopping the traffic, the relayer and both chains...`);
    setTimeout(() => process.exit(1), 15_000).unref();
    void (devnet?.stop() ?? Promise.resolve()).then(
      () => {
        say(`stopped (${devnet?.sent() ?? 0} messages were sent).`);
        process.exit(0);
      },
      (e: unknown) => {
        console.error(`devnet: stopping failed: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  try {
    devnet = await startDevnet({
      ...DEVNET_DEFAULTS,
      ports: o.ports,
      trafficEveryMs: o.trafficEveryMs,
      blockTime: o.blockTime,
      relayerMetricsPort: o.relayerMetricsPort,
      failEvery: o.failEvery,
      onProblem: (m) => say(`problem: ${m}`),
    });
  } catch (e) {
    const m = (e as Error).message;
    console.error(
      `devnet: could not start: ${/Address already in use|EADDRINUSE/i.test(m) ? `a port is in use; pick others with --ports or --relayer-metrics-port (${m.split('\n')[0]})` : m}`,
    );
    return 1;
  }
  if (stopping) return -1;
  const file = relative(process.cwd(), o.out) || o.out;
  writeFileSync(o.out, headlessYaml(devnet, { metricsPort: o.metricsPort, file }));
  for (const c of devnet.chains)
    say(`chain ${c.name}: RPC ${c.rpcUrl}, EVM chain ID ${c.evmChainId}, blockchain ID ${c.blockchainId}, messenger ${c.messenger}`);
  say(
    `relayer ${devnet.relayer} delivers both ways; sender ${devnet.sender} sends ${o.trafficEveryMs ? `a message every ${o.trafficEveryMs / 1000} s` : 'nothing (--every 0)'}.`,
  );
  if (o.failEvery)
    say(
      `${o.failEvery === 1 ? "every delivery's execution fails" : `the execution of one delivery in ${o.failEvery} fails`}: its route's Failed executions list it, with its Retry call.`,
    );
  if (devnet.relayerMetricsUrl) {
    const inject = devnet.relayerMetricsUrl.replace(/\/metrics$/, '/_inject?delivered=5');
    say(
      `relayer metrics (the ICM relayer's names and labels): ${devnet.relayerMetricsUrl}; to make it claim 5 deliveries no chain shows: curl -X POST '${inject}'`,
    );
  }
  console.log('');
  for (const line of pasteLines(devnet)) console.log(line);
  console.log('');
  say(`headless config written to ${file}: npm run watch -- --config ${file}`);
  const relayerFile = relative(process.cwd(), o.relayerConfig) || o.relayerConfig;
  writeFileSync(o.relayerConfig, relayerConfigJson(devnet));
  say(`relayer config written to ${relayerFile}: import it in the Relayers view (Import relayer config), docs/relayer-config.md`);
  say('ready. Ctrl+C stops everything.');
  return -1;
}

main().then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (e: unknown) => {
    console.error(`devnet: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
