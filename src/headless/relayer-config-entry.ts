/**
 * The headless config's `relayerConfig:` entry: an ICM relayer's config file whose reward addresses,
 * delivery wallets and routes join the file's own `relayers` and `routes` lists (what the lists already
 * name stays as written there). The watcher's sync then adds and removes as for any list entry, so an
 * edited relayer config shows at the next start as what was added and removed. The relayer file's
 * keys are read only to derive wallet addresses (core/relayers/relayer-config.ts).
 */
import { readFileSync, statSync } from 'node:fs';
import { routeIdentity } from '../shared/chain-input';
import { ownChainsOf } from '../shared/chains';
import { RELAYER_CONFIG_MAX_CHARS } from '../shared/relayer-config';
import { parseRelayerConfig } from '../core';
import type { HeadlessConfig } from './config-schema';

/** What was read from the relayer config, for the start's summary. */
export interface RelayerConfigMerge {
  config: HeadlessConfig;
  /** Added to the lists: reward addresses, wallets, routes (0s when the entry is absent). */
  added: { relayers: number; wallets: number; routes: number };
  metricsPort: number | null;
}

/** A relayer config that cannot be used: its message names the file and each field (`relayer.json: source-blockchains[0].blockchain-id: …`). */
export class RelayerConfigFileError extends Error {}

/** The config with the relayer config's watches joined to its lists; throws RelayerConfigFileError. */
export function mergeRelayerConfig(config: HeadlessConfig, resolvePath: (p: string) => string): RelayerConfigMerge {
  const none = { config, added: { relayers: 0, wallets: 0, routes: 0 }, metricsPort: null };
  if (!config.relayerConfig) return none;
  const path = resolvePath(config.relayerConfig);
  const fail = (why: string) => new RelayerConfigFileError(`${config.relayerConfig}: ${why}`);
  let text: string;
  try {
    if (statSync(path).size > RELAYER_CONFIG_MAX_CHARS) throw fail(`larger than ${RELAYER_CONFIG_MAX_CHARS / 1_000_000} MB`);
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (e instanceof RelayerConfigFileError) throw e;
    throw fail(`cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const own = ownChainsOf(config.dataSource as { kind: string; ownNodes?: { chains: { blockchainId: string }[] } });
  const r = parseRelayerConfig(text, { ownChains: own, network: config.network ?? 'mainnet' });
  if (!r.ok) throw fail(r.problems.join('; '));
  const plan = r.plan;
  const listed = new Set(config.relayers.map((x) => x.address.toLowerCase()));
  const relayers = [...config.relayers];
  const add = (address: string, label: string, alert: boolean) => {
    if (listed.has(address.toLowerCase())) return false;
    listed.add(address.toLowerCase());
    relayers.push({ address, label, network: plan.network, alert });
    return true;
  };
  const added = { relayers: 0, wallets: 0, routes: 0 };
  for (const x of plan.relayers) if (add(x.address, x.label, true)) added.relayers++;
  // A wallet is watched for its fuel and deliveries; the reward address carries the silence alert.
  for (const w of plan.wallets) if (add(w.address, w.label, false)) added.wallets++;
  const routes = [...config.routes];
  const have = new Set(routes.map((x) => routeIdentity(x.network ?? config.network ?? 'mainnet', x.source, x.destination)));
  for (const x of plan.routes) {
    if (have.has(routeIdentity(plan.network, x.source, x.destination))) continue;
    routes.push({ source: x.source, destination: x.destination, network: plan.network });
    added.routes++;
  }
  return { config: { ...config, relayers, routes }, added, metricsPort: plan.metricsPort };
}
