/**
 * The devnet's relayer described as an ICM relayer config (ava-labs/icm-services, relayer/config), so
 * "Import relayer config" can be tried on it (docs/relayer-config.md). Its key fields hold the
 * devnet's well-known anvil key, as a real file holds a real one: the import derives the wallet's
 * address from it and keeps nothing else of it. The devnet has no P-Chain, so a real relayer could
 * not run on this file; the app only reads it.
 */
import { keccak256, toBytes } from 'viem';
import { encodeCb58 } from '../shared/validators';
import { KEYS } from './chains';
import { DEVNET_RELAYER_METRICS_PORT, type Devnet } from './devnet';

export { DEVNET_RELAYER_METRICS_PORT };

/** The file's api-port (the relayer's default is 8080). */
export const DEVNET_RELAYER_API_PORT = 9180;

/** A subnet ID for the devnet's chains (they have none): any 32 bytes in cb58 pass the relayer's check. */
const DEVNET_SUBNET_ID = encodeCb58(toBytes(keccak256(toBytes('teleporter-watch devnet subnet'))));

export function relayerConfigJson(d: Devnet, o: { metricsPort?: number; apiPort?: number } = {}): string {
  const config = {
    'log-level': 'info',
    'metrics-port': o.metricsPort ?? (d.relayerMetricsUrl ? Number(new URL(d.relayerMetricsUrl).port) : DEVNET_RELAYER_METRICS_PORT),
    'api-port': o.apiPort ?? DEVNET_RELAYER_API_PORT,
    'info-api': { 'base-url': d.chains[0].rpcUrl.replace(/\/[^/]*$/, '') },
    'p-chain-api': { 'base-url': d.chains[0].rpcUrl.replace(/\/[^/]*$/, '') },
    'source-blockchains': d.chains.map((c) => ({
      'subnet-id': DEVNET_SUBNET_ID,
      'blockchain-id': c.blockchainId,
      'rpc-endpoint': { 'base-url': c.rpcUrl },
      'ws-endpoint': { 'base-url': c.wsUrl },
      'message-contracts': { [c.messenger]: { 'message-format': 'teleporter', settings: { 'reward-address': d.relayer } } },
    })),
    'destination-blockchains': d.chains.map((c) => ({
      'subnet-id': DEVNET_SUBNET_ID,
      'blockchain-id': c.blockchainId,
      'rpc-endpoint': { 'base-url': c.rpcUrl },
      // anvil's well-known development key (src/devnet/chains.ts): worthless anywhere else, never read into the app.
      'account-private-key': KEYS.relayer,
    })),
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
