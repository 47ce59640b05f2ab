/**
 * What watching a demo relayer shows (its routes watched with it): the alert kinds its schedule and
 * wallet make happen, so the offer can lead a newcomer to each. The outage relayer's silence backs its
 * routes up, and on the demo day the burst of failed executions comes on its first route; the dry
 * wallet's relayer runs low on gas.
 */
import { chainByBlockchainId } from '../shared/chains';
import type { DemoRelayer } from './relayer-personas';
import type { DryWallet } from './wallets';

export type DemoShow = 'relayer_silent' | 'route_backlog' | 'fuel_low' | 'route_failed_executions';

export function withShows(relayers: readonly DemoRelayer[], dry: DryWallet | null, demoDay: boolean): DemoRelayer[] {
  return relayers.map((r) => {
    const shows: DemoShow[] = [];
    if (r.behaviour === 'outage') shows.push('relayer_silent', 'route_backlog', ...(demoDay ? (['route_failed_executions'] as const) : []));
    const fuel = dry !== null && dry.relayer === r.address.toLowerCase();
    if (fuel) shows.push('fuel_low');
    const chain = fuel ? (chainByBlockchainId(dry.blockchainId)?.name ?? 'one chain') : '';
    const low = demoDay
      ? ` Its gas wallet on ${chain} starts the day low and is refilled a few minutes in.`
      : ` Its gas wallet on ${chain} runs dry between refills.`;
    return { ...r, description: fuel ? r.description + low : r.description, shows };
  });
}
