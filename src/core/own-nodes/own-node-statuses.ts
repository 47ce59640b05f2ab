/**
 * The local service says how each chain's node is doing at `/_local/info` (`ownNodes[]`); the
 * core reads it after each poll cycle for the poll status and `/metrics`.
 */
import { z } from 'zod';
// undici's fetch (the core's HTTP client), not the global one a host environment may replace.
import { fetch } from 'undici';
import { CHAIN_STATES, SKIP_REASONS, type OwnNodeStatus } from '../../shared/own-nodes';

const n = z.number().nullable();
const StatusSchema = z.object({
  blockchainId: z.string().max(100),
  name: z.string().max(100),
  host: z.string().max(300),
  state: z.enum(CHAIN_STATES),
  message: z.string().max(2000),
  evmChainId: z.string().max(80).nullable(),
  head: n,
  indexedTo: n,
  span: z.number(),
  rpcCalls: z.number(),
  reorgs: z.number(),
  lastScanAt: n,
  skipped: z.partialRecord(z.enum(SKIP_REASONS), z.number().int().nonnegative()),
});
const InfoSchema = z.object({ ownNodes: z.array(StatusSchema).max(50) });
const TIMEOUT_MS = 5_000;

/** Each chain's status, or null when the service cannot tell (not up, not in own-nodes mode). */
export async function readOwnNodeStatuses(url: string | null): Promise<OwnNodeStatus[] | null> {
  if (!url) return null;
  try {
    const res = await fetch(`${url}/_local/info`, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!res.ok) return null;
    const parsed = InfoSchema.safeParse(await res.json());
    return parsed.success ? parsed.data.ownNodes : null;
  } catch {
    return null;
  }
}
