/**
 * Where an Activity alert row leads: the Relayers view's row of the relayer it names, else of the route it
 * concerns; an alert about neither (a data source's health) leads nowhere.
 */
import type { AlertEntry } from '../../../shared/contract';

export type RelayersFocus = { kind: 'relayer'; relayer: string } | { kind: 'route'; sourceChain: string; destinationChain: string };

export function alertTarget(e: AlertEntry): RelayersFocus | null {
  if (e.relayer) return { kind: 'relayer', relayer: e.relayer };
  if (e.sourceChain && e.destinationChain) return { kind: 'route', sourceChain: e.sourceChain, destinationChain: e.destinationChain };
  return null;
}

/** Whether a Relayers view row is the one focused. */
export const isFocused = (f: RelayersFocus | null, row: { address: string } | { sourceChain: string; destinationChain: string }): boolean => {
  if (!f) return false;
  if (f.kind === 'relayer') return 'address' in row && row.address.toLowerCase() === f.relayer.toLowerCase();
  return 'sourceChain' in row && row.sourceChain === f.sourceChain && row.destinationChain === f.destinationChain;
};
