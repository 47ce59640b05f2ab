/**
 * The relayer's own-view disagreement alerts open now, named as its series name them
 * (metrics/relayer-own-view-metrics.ts): the relayer by its episode key's network and address, a claim
 * by its route's name (as compareOwnView names it), failures by their reason. Read from the open
 * episodes, the core's truth: one held while the relayer is not read (or a chain not seen) is still open.
 */
import { routeLabel, type OwnChain } from '../../shared/chains';
import type { OpenEpisode } from '../store/relayer-episodes';
import { ownKeyParts } from './own-vs-chain';

export interface OpenOwnAlert {
  kind: 'relayer_claims_unseen' | 'relayer_failures';
  /** Canonical, as in its key. */
  network: string;
  /** The relayer's address, lower case (as in its key). */
  relayer: string;
  /** A claim's route name; null for failures (they count over all its routes). */
  route: string | null;
  /** The failures' reason; null for a claim. */
  reason: string | null;
}

export function openOwnAlerts(open: Iterable<OpenEpisode>, own: readonly OwnChain[]): OpenOwnAlert[] {
  const out: OpenOwnAlert[] = [];
  for (const e of open) {
    if (e.kind !== 'relayer_claims_unseen' && e.kind !== 'relayer_failures') continue;
    const { network, relayer, reason } = ownKeyParts(e.key);
    const claim = e.kind === 'relayer_claims_unseen';
    out.push({
      kind: e.kind,
      network,
      relayer,
      route: claim ? routeLabel(e.sourceChain, e.destinationChain, own) : null,
      reason: claim ? null : reason,
    });
  }
  return out;
}
