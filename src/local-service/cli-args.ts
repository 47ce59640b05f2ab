/** Command-line flags of the service, turned into ServiceOptions with clear errors. */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { PUBLIC_PLANS, type PublicPlan } from './compute-units';
import { fail, ok, type Parsed } from '../shared/result';
import type { ServiceOptions } from './compose-world';
import { readFileSync } from 'node:fs';
import { OwnNodesSchema, type OwnNodesInput } from '../shared/own-nodes';

function readOwnNodes(file: string): Parsed<OwnNodesInput> {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    return fail(`--own-nodes: cannot read ${file} as JSON (${(e as Error).message}).`);
  }
  const r = OwnNodesSchema.safeParse(raw);
  if (!r.success) {
    const i = r.error.issues[0]!;
    return fail(`--own-nodes: ${i.path.length ? `${i.path.join('.')}: ` : ''}${i.message}`);
  }
  return ok(raw as OwnNodesInput);
}

export const USAGE = `Usage: npm run service -- [options]
  --port <n>          port on 127.0.0.1 (default 0: a free port, printed on start)
  --db <file>         SQLite file (default: a temporary file, deleted on exit)
  --seed <n>          simulator seed (default 1)
  --rate <msgs/s>     new simulated messages per second, 0 = none (default 2)
  --speed <x>         delivery and receipt delays are divided by x (default 1)
  --api-key <key>     accepted key, sent in x-glacier-api-key or x-service-api-key (repeatable)
  --require-key       answer 401 to requests without a key
  --faults <profile>  flaky | ratelimited | slow | malformed | chaos, or a spec like 5xx:0.2,429:0.1
  --preload <n>       insert n historical messages at start
  --history <hours>   on an empty store, first write this many hours of past traffic at --rate
                      (at most 20000 messages); the store then keeps its seed across restarts
  --rate-limit <keyed>,<anonymous>   requests per minute, 20 CU each, no daily limit (default 600,120)
  --plans <keyed>,<anonymous>        the public plans' CU a minute and a day per caller, e.g. free,unauthenticated
                      (unauthenticated | free | base | growth | pro; the default with --realistic)
  --realistic         the realistic world: every behaviour below on, the public API's CU limits
  --lag, --no-lag     indexing lag per record change (seconds, some tens of seconds, a few minutes)
  --loose-order, --no-loose-order     records of one second listed in an arbitrary order
  --sparse-routes, --no-sparse-routes few busy routes; the others quiet, some one way
  --messenger-versions <1|2>          two messenger contracts per route, nonces overlapping
  --receipt-resends, --no-receipt-resends   relayers re-send receipts missing after 3 minutes
  --dry-wallet, --no-dry-wallet     one demo relayer's gas wallet runs dry on one chain between refills
  --stalls, --no-stalls     rare indexer stalls of 30-120 minutes (off; also with --realistic)
  --demo-day, --no-demo-day the demo day: every alert kind happens and ends in the first minutes
                      (off; the embedded demo turns it on; docs/local-service.md)
                      (each behaviour defaults to --realistic; resends default to on without it)
  --log-requests      one line per request on stderr
  --no-warm           do not read the store file into the OS cache at start
  --own-nodes <file>  read Teleporter from your own nodes instead of simulating: a JSON file
                      { "chains": [{ "rpcUrl", "blockchainId", "wsUrl"?, "messengers"? ... }],
                        "confirmations"?, "pollIntervalMs"? } (docs/own-node.md)
  --exit-with-stdin   stop when stdin closes (a parent that spawns the service keeps a pipe open;
                      when the parent dies by any signal the pipe closes and the service exits)
  --help              this text`;

function number(name: string, raw: string | undefined, integer: boolean): Parsed<number | undefined> {
  if (raw === undefined) return ok(undefined);
  const n = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(n) || (integer && !Number.isInteger(n))) {
    return fail(`--${name} must be ${integer ? 'a whole number' : 'a number'} (got "${raw}").`);
  }
  return ok(n);
}

const FLAGS = {
  port: { type: 'string' },
  db: { type: 'string' },
  seed: { type: 'string' },
  rate: { type: 'string' },
  speed: { type: 'string' },
  'api-key': { type: 'string', multiple: true },
  'require-key': { type: 'boolean' },
  faults: { type: 'string' },
  preload: { type: 'string' },
  history: { type: 'string' },
  'rate-limit': { type: 'string' },
  plans: { type: 'string' },
  'log-requests': { type: 'boolean' },
  'no-warm': { type: 'boolean' },
  'exit-with-stdin': { type: 'boolean' },
  realistic: { type: 'boolean' },
  lag: { type: 'boolean' },
  'no-lag': { type: 'boolean' },
  'loose-order': { type: 'boolean' },
  'no-loose-order': { type: 'boolean' },
  'sparse-routes': { type: 'boolean' },
  'no-sparse-routes': { type: 'boolean' },
  'messenger-versions': { type: 'string' },
  'receipt-resends': { type: 'boolean' },
  'no-receipt-resends': { type: 'boolean' },
  'dry-wallet': { type: 'boolean' },
  'no-dry-wallet': { type: 'boolean' },
  'demo-day': { type: 'boolean' },
  'no-demo-day': { type: 'boolean' },
  stalls: { type: 'boolean' },
  'no-stalls': { type: 'boolean' },
  'own-nodes': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsOptionsConfig;

export function parseCliArgs(argv: string[]): Parsed<{ help: true } | { help: false; options: ServiceOptions; exitWithStdin?: true }> {
  let values;
  try {
    ({ values } = parseArgs({ args: argv, options: FLAGS, strict: true, allowPositionals: false }));
  } catch (e) {
    return fail(e instanceof Error ? e.message : String(e));
  }
  if (values.help) return ok({ help: true });
  const options: ServiceOptions = {};
  const numeric = [
    ['port', true],
    ['seed', true],
    ['rate', false],
    ['speed', false],
    ['preload', true],
    ['history', false],
  ] as const;
  for (const [name, integer] of numeric) {
    const r = number(name, values[name], integer);
    if (!r.ok) return r;
    if (r.value !== undefined) options[name] = r.value;
  }
  if (values.db !== undefined) options.dbPath = values.db;
  if (values['api-key']) options.apiKeys = values['api-key'];
  if (values['require-key']) options.requireKey = true;
  if (values.faults !== undefined) options.faults = values.faults;
  if (values['log-requests']) options.logRequests = true;
  if (values['no-warm']) options.warmStore = false;
  if (values['own-nodes'] !== undefined) {
    const r = readOwnNodes(values['own-nodes']);
    if (!r.ok) return r;
    options.ownNodes = r.value;
    options.rate = 0;
  }
  if (values['rate-limit'] !== undefined) {
    const m = /^(\d+),(\d+)$/.exec(values['rate-limit']);
    if (!m) return fail(`--rate-limit must be <keyed>,<anonymous> requests per minute, like 600,120 (got "${values['rate-limit']}").`);
    options.rateLimitPerMinute = { keyed: Number(m[1]), anonymous: Number(m[2]) };
  }
  if (values.plans !== undefined) {
    const m = /^(\w+),(\w+)$/.exec(values.plans);
    const known = (p: string | undefined): p is PublicPlan => p !== undefined && p in PUBLIC_PLANS;
    if (!m || !known(m[1]) || !known(m[2]))
      return fail(
        `--plans must be <keyed>,<anonymous> plans among ${Object.keys(PUBLIC_PLANS).join(', ')}, like free,unauthenticated (got "${values.plans}").`,
      );
    if (values['rate-limit'] !== undefined) return fail('--plans and --rate-limit contradict each other: give one.');
    options.computeUnits = { keyed: m[1], anonymous: m[2] };
  }
  if (values.realistic) options.realistic = true;
  const switches = [
    ['lag', 'lag'],
    ['loose-order', 'looseOrder'],
    ['sparse-routes', 'sparseRoutes'],
    ['receipt-resends', 'receiptResends'],
    ['dry-wallet', 'dryWallet'],
    ['stalls', 'stalls'],
    ['demo-day', 'demoDay'],
  ] as const;
  for (const [flag, name] of switches) {
    const on = values[flag];
    const off = values[`no-${flag}`];
    if (on && off) return fail(`--${flag} and --no-${flag} contradict each other.`);
    if (on || off) options[name] = Boolean(on);
  }
  const versions = values['messenger-versions'];
  if (versions !== undefined) {
    if (versions !== '1' && versions !== '2') return fail(`--messenger-versions must be 1 or 2 (got "${versions}").`);
    options.messengerVersions = versions === '1' ? 1 : 2;
  }
  return ok({ help: false, options, ...(values['exit-with-stdin'] ? { exitWithStdin: true as const } : {}) });
}
