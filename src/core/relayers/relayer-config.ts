/**
 * Reads an ICM relayer's config file (ava-labs/icm-services, relayer/config) into what the app
 * watches: one relayer per reward address, every route it serves, the delivery wallets' addresses
 * and its metrics and API ports. Field names and rules follow the relayer's own source:
 * - blockchain and subnet IDs are cb58 or 0x hex (utils.HexOrCB58ToID);
 * - a source without `supported-destinations` serves every destination (SourceBlockchain.Validate);
 * - keys may sit on a destination (`account-private-key`, `account-private-keys-list`) or at the top,
 *   for every destination (viper's BuildConfig); KMS (`kms-key-id`, `kms-keys`) gives no address here.
 * Signing material is read only to derive an address (key-address.ts) and never leaves this file;
 * endpoints are not kept either (their URLs, headers and query parameters may carry API keys).
 */
import { hex } from '@scure/base';
import { chainByBlockchainId, chainLabel, routeLabel, type OwnChain } from '../../shared/chains';
import type { RelayerConfigPlan } from '../../shared/relayer-config';
import { encodeCb58, parseBlockchainId, toChecksumAddress, type Network } from '../../shared/validators';
import { walletAddressOf } from './key-address';

export interface RelayerConfigContext {
  /** Your own nodes' chains (their names name the routes). */
  ownChains: readonly OwnChain[];
  /** The network when no chain of the file is in the registry. */
  network: Network;
}

export type RelayerConfigResult = { ok: true; plan: RelayerConfigPlan } | { ok: false; problems: string[] };

const DEFAULT_METRICS_PORT = 9090;
const DEFAULT_API_PORT = 8080;
const TELEPORTER_FORMATS = new Set(['teleporter', 'teleporter-v2']);
const KNOWN_FORMATS = new Set([...TELEPORTER_FORMATS, 'off-chain-registry']);
const ADDRESS_RE = /^0x[0-9a-fA-F]{40}$/;
const HEX_ID_RE = /^0x[0-9a-fA-F]{64}$/;
const MAX_PROBLEMS = 20;
const LABEL_MAX = 80;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const cut = (s: string) => (s.length > LABEL_MAX ? `${s.slice(0, LABEL_MAX - 1)}…` : s);
/** A value as an error may quote it (never for signing fields): short, one line. */
const quote = (v: unknown) => {
  const s = typeof v === 'string' ? v : JSON.stringify(v);
  return `"${(s ?? String(v)).slice(0, 60).replace(/\s+/g, ' ')}"`;
};

/** A cb58 blockchain or subnet ID from cb58 or 0x hex, as the relayer's HexOrCB58ToID reads it. */
function chainId(v: unknown): string | null {
  if (typeof v !== 'string') return null;
  if (HEX_ID_RE.test(v)) return encodeCb58(hex.decode(v.slice(2).toLowerCase()));
  return parseBlockchainId(v).ok ? v : null;
}

const address = (v: unknown): string | null => (typeof v === 'string' && ADDRESS_RE.test(v) ? toChecksumAddress(v) : null);

function port(v: unknown, fallback: number): number | null {
  if (v === undefined) return fallback;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535 ? v : null;
}

export function parseRelayerConfig(text: string, ctx: RelayerConfigContext): RelayerConfigResult {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return { ok: false, problems: [`file: not JSON (${(e as Error).message})`] };
  }
  if (!isObj(raw)) return { ok: false, problems: ['file: a relayer config is a JSON object with source-blockchains and destination-blockchains'] };
  const problems: string[] = [];
  const problem = (path: string, message: string) => {
    if (problems.length < MAX_PROBLEMS) problems.push(`${path}: ${message}`);
  };
  const skipped: string[] = [];
  const own = ctx.ownChains;
  const nameOf = (id: string) => chainLabel(id, own);

  const metricsPort = port(raw['metrics-port'], DEFAULT_METRICS_PORT);
  if (metricsPort === null) problem('metrics-port', `not a port number (0 to 65535): ${quote(raw['metrics-port'])}`);
  const apiPort = port(raw['api-port'], DEFAULT_API_PORT);
  if (apiPort === null) problem('api-port', `not a port number (0 to 65535): ${quote(raw['api-port'])}`);

  // Keys at the top serve every destination (the relayer appends them to each one's list).
  const globalWallets = walletsIn(raw, '', skipped, problem);

  const destinations: { id: string; path: string }[] = [];
  const wallets: RelayerConfigPlan['wallets'] = [];
  const walletsToType: RelayerConfigPlan['walletsToType'] = [];
  const dests = raw['destination-blockchains'];
  if (!Array.isArray(dests) || dests.length === 0) problem('destination-blockchains', 'required: a list of at least one destination blockchain');
  else
    dests.forEach((d, i) => {
      const path = `destination-blockchains[${i}]`;
      if (!isObj(d)) return problem(path, 'not an object');
      const id = chainId(d['blockchain-id']);
      if (!id) return problem(`${path}.blockchain-id`, `not a cb58 or 0x blockchain ID: ${quote(d['blockchain-id'])}`);
      if (!chainId(d['subnet-id'])) problem(`${path}.subnet-id`, `not a cb58 or 0x subnet ID: ${quote(d['subnet-id'])}`);
      if (destinations.some((x) => x.id === id)) return problem(`${path}.blockchain-id`, `${id} is already a destination (the relayer needs each once)`);
      destinations.push({ id, path });
      const found = [...new Set([...walletsIn(d, `${path}.`, skipped, problem), ...globalWallets])];
      for (const a of found) wallets.push({ address: a, blockchainId: id, chainName: nameOf(id), label: cut(`relayer wallet on ${nameOf(id)}`) });
      const kms = d['kms-key-id'] !== undefined || d['kms-keys'] !== undefined;
      if (d['kms-key-id'] !== undefined) skipped.push(`${path}.kms-key-id`);
      if (d['kms-keys'] !== undefined) skipped.push(`${path}.kms-keys`);
      if (kms) walletsToType.push({ blockchainId: id, chainName: nameOf(id), why: 'signs with a KMS key: type its address' });
      else if (found.length === 0)
        walletsToType.push({
          blockchainId: id,
          chainName: nameOf(id),
          why: `no key in the file (ACCOUNT_PRIVATE_KEY_${id} on the relayer's host?): type its address`,
        });
    });

  const relayers: RelayerConfigPlan['relayers'] = [];
  const routes: RelayerConfigPlan['routes'] = [];
  const messengers: RelayerConfigPlan['messengers'] = [];
  const sourceIds = new Set<string>();
  const sources = raw['source-blockchains'];
  if (!Array.isArray(sources) || sources.length === 0) problem('source-blockchains', 'required: a list of at least one source blockchain');
  else
    sources.forEach((s, i) => {
      const path = `source-blockchains[${i}]`;
      if (!isObj(s)) return problem(path, 'not an object');
      const id = chainId(s['blockchain-id']);
      if (!id) return problem(`${path}.blockchain-id`, `not a cb58 or 0x blockchain ID: ${quote(s['blockchain-id'])}`);
      if (!chainId(s['subnet-id'])) problem(`${path}.subnet-id`, `not a cb58 or 0x subnet ID: ${quote(s['subnet-id'])}`);
      if (sourceIds.has(id)) return problem(`${path}.blockchain-id`, `${id} is already a source (the relayer needs each once)`);
      sourceIds.add(id);
      readContracts(s['message-contracts'], `${path}.message-contracts`, id);
      for (const dest of supportedOf(s, path)) {
        if (dest === id) continue; // a chain to itself is no route
        routes.push({ source: id, destination: dest, label: routeLabel(id, dest, own) });
      }
    });

  function readContracts(v: unknown, path: string, source: string): void {
    if (!isObj(v) || Object.keys(v).length === 0) return problem(path, 'required: the messenger address mapped to its message format and settings');
    for (const [key, c] of Object.entries(v)) {
      const at = `${path}.${key}`;
      const messenger = address(key);
      if (!messenger) problem(at, 'not a contract address (0x and 40 hex digits)');
      if (!isObj(c)) {
        problem(at, 'not an object with message-format and settings');
        continue;
      }
      const format = c['message-format'];
      if (typeof format !== 'string' || !KNOWN_FORMATS.has(format)) {
        problem(`${at}.message-format`, `unsupported message format ${quote(format)} (teleporter, teleporter-v2 or off-chain-registry)`);
        continue;
      }
      if (!TELEPORTER_FORMATS.has(format)) continue;
      const settings = isObj(c.settings) ? c.settings : {};
      const reward = address(settings['reward-address']);
      if (!reward) {
        problem(`${at}.settings.reward-address`, `not an address (0x and 40 hex digits): ${quote(settings['reward-address'])}`);
        continue;
      }
      if (messenger && !messengers.some((m) => m.blockchainId === source && m.address === messenger))
        messengers.push({ blockchainId: source, address: messenger });
      if (!relayers.some((r) => r.address === reward)) relayers.push({ address: reward, label: '' });
    }
  }

  /** The destinations a source serves: its supported-destinations, or every destination when it lists none. */
  function supportedOf(s: Obj, path: string): string[] {
    const list = s['supported-destinations'];
    if (list === undefined || list === null || (Array.isArray(list) && list.length === 0)) return destinations.map((d) => d.id);
    if (!Array.isArray(list)) {
      problem(`${path}.supported-destinations`, 'not a list');
      return [];
    }
    const out: string[] = [];
    list.forEach((d, j) => {
      const at = `${path}.supported-destinations[${j}]`;
      const id = isObj(d) ? chainId(d['blockchain-id']) : null;
      if (!id) return problem(`${at}.blockchain-id`, `not a cb58 or 0x blockchain ID: ${quote(isObj(d) ? d['blockchain-id'] : d)}`);
      if (!destinations.some((x) => x.id === id)) return problem(`${at}.blockchain-id`, `${id} is not one of destination-blockchains`);
      const addrs = isObj(d) ? d.addresses : undefined;
      if (addrs !== undefined && (!Array.isArray(addrs) || addrs.some((a) => !address(a))))
        problem(`${at}.addresses`, 'not a list of addresses (0x and 40 hex digits)');
      if (!out.includes(id)) out.push(id);
    });
    return out;
  }

  if (problems.length) return { ok: false, problems };
  relayers.forEach((r, i) => (r.label = relayers.length === 1 ? 'relayer (reward address)' : `relayer ${i + 1} (reward address)`));
  const known = [...sourceIds, ...destinations.map((d) => d.id)].map(chainByBlockchainId).find((c) => c !== undefined);
  return {
    ok: true,
    plan: {
      network: known?.network ?? ctx.network,
      relayers,
      routes,
      wallets,
      walletsToType,
      messengers,
      metricsPort: metricsPort ?? DEFAULT_METRICS_PORT,
      apiPort: apiPort ?? DEFAULT_API_PORT,
      skipped,
    },
  };
}

/** The addresses of the keys an object holds (`account-private-key`, `account-private-keys-list`); the keys themselves go no further. */
function walletsIn(o: Obj, prefix: string, skipped: string[], problem: (path: string, message: string) => void): string[] {
  const out: string[] = [];
  const one = o['account-private-key'];
  if (one !== undefined) {
    skipped.push(`${prefix}account-private-key`);
    const a = walletAddressOf(one);
    if (a) out.push(a);
    else problem(`${prefix}account-private-key`, 'not a private key (64 hex digits); its value is not shown');
  }
  const list = o['account-private-keys-list'];
  if (list !== undefined) {
    skipped.push(`${prefix}account-private-keys-list`);
    if (!Array.isArray(list)) problem(`${prefix}account-private-keys-list`, 'not a list of private keys; its value is not shown');
    else
      list.forEach((k, i) => {
        const a = walletAddressOf(k);
        if (a) out.push(a);
        else problem(`${prefix}account-private-keys-list[${i}]`, 'not a private key (64 hex digits); its value is not shown');
      });
  }
  return out;
}
