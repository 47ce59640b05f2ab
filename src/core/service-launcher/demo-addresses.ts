/**
 * The embedded demo service tells its busiest addresses at `/_local/info`; the UI offers them so a
 * new user's Activity fills within a minute. Asked only of the local service, never of a real API.
 */
import { z } from 'zod';
import type { DemoAddresses } from '../../shared/contract';
import { evmAddress } from '../../shared/schemas';
// undici's fetch (the core's HTTP client), not the global one a host environment may replace.
import { fetch } from 'undici';

const InfoSchema = z.object({ hotAddresses: z.array(evmAddress).max(50) });
const TIMEOUT_MS = 5_000;

export class DemoAddressSource {
  private cached: { url: string; value: DemoAddresses } | null = null;

  /** The busy addresses of the service at `url` (remembered per URL; empty if it cannot tell). */
  async get(url: string | null): Promise<DemoAddresses> {
    if (!url) return { addresses: [] };
    if (this.cached?.url === url) return this.cached.value;
    try {
      const res = await fetch(`${url}/_local/info`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
      if (!res.ok) return { addresses: [] };
      const parsed = InfoSchema.safeParse(await res.json());
      if (!parsed.success) return { addresses: [] };
      const value = { addresses: parsed.data.hotAddresses };
      this.cached = { url, value };
      return value;
    } catch {
      return { addresses: [] };
    }
  }
}
