/**
 * The embedded demo service tells its busiest addresses and its relayer personas at `/_local/info`;
 * the UI offers them so a new user's Activity and Relayers view fill within minutes. Asked only of
 * the local service, never of a real API.
 */
import { z } from 'zod';
import type { DemoAddresses } from '../../shared/contract';
import { blockchainId, evmAddress } from '../../shared/schemas';
import { EPISODE_KINDS, type EpisodeKind } from '../../shared/vocabulary';
// undici's fetch (the core's HTTP client), not the global one a host environment may replace.
import { fetch } from 'undici';

const DemoRelayerSchema = z.object({
  address: evmAddress,
  name: z.string().min(1).max(80),
  behaviour: z.enum(['fast', 'slow', 'outage', 'takeover', 'steady']),
  description: z.string().max(1000),
  routes: z.array(z.object({ source: blockchainId, destination: blockchainId })).max(1000),
  // Kinds this build does not know are left out, not a reason to offer no relayer.
  shows: z
    .array(z.string().max(40))
    .max(10)
    .optional()
    .transform((s) => s?.filter((k): k is EpisodeKind => (EPISODE_KINDS as readonly string[]).includes(k))),
});
const InfoSchema = z.object({ hotAddresses: z.array(evmAddress).max(50), demoRelayers: z.unknown().optional() });
// Read on their own: a service without personas (or with ones this build cannot read) still offers its addresses.
const DemoRelayersSchema = z.array(DemoRelayerSchema).max(50);
const TIMEOUT_MS = 5_000;
const NONE: DemoAddresses = { addresses: [], relayers: [] };

export class DemoAddressSource {
  private cached: { url: string; value: DemoAddresses } | null = null;

  /** The busy addresses and relayers of the service at `url` (remembered per URL; empty if it cannot tell). */
  async get(url: string | null): Promise<DemoAddresses> {
    if (!url) return NONE;
    if (this.cached?.url === url) return this.cached.value;
    try {
      const res = await fetch(`${url}/_local/info`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) return NONE;
      const parsed = InfoSchema.safeParse(await res.json());
      if (!parsed.success) return NONE;
      const relayers = DemoRelayersSchema.safeParse(parsed.data.demoRelayers);
      const value = { addresses: parsed.data.hotAddresses, relayers: relayers.success ? relayers.data : [] };
      this.cached = { url, value };
      return value;
    } catch {
      return NONE;
    }
  }
}
