/** The network each configured chain's messages are listed under: as configured, else the registry's, else mainnet. */
import { chainByBlockchainId } from '../shared/chains';
import { OwnNodesSchema, type OwnNodesInput } from '../shared/own-nodes';

export function ownChainNetworks(input: OwnNodesInput): Map<string, 'mainnet' | 'fuji'> {
  const config = OwnNodesSchema.parse(input);
  return new Map(config.chains.map((c) => [c.blockchainId, c.network ?? chainByBlockchainId(c.blockchainId)?.network ?? 'mainnet']));
}
