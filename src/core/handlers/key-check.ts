/**
 * The Settings "Test" button: proves that the data source honours the key, not merely that a request
 * with it succeeds. A service that ignores the key header answers with the keyless rate limit, so one
 * request with the key and one without are compared by their RateLimit headers.
 */
import type { ApiKeyTestResult } from '../../shared/contract';
import type { DataApiClient, RateLimitSeen } from '../data-api/client';

export async function checkApiKey(withKey: DataApiClient, withoutKey: DataApiClient, header: string): Promise<ApiKeyTestResult> {
  const keyed = await withKey.listMessages({ pageSize: 1 });
  if (!keyed.ok) return { ok: false, message: keyed.error.message, error: keyed.error };
  const keyedLimit = limitOf(withKey.lastRateLimit);
  const anon = await withoutKey.listMessages({ pageSize: 1 });
  if (!anon.ok && anon.error.kind === 'unauthorized') return { ok: true, message: `The key works with ${withKey.host}, which refuses requests without one.` };
  const anonLimit = anon.ok ? limitOf(withoutKey.lastRateLimit) : null;
  if (keyedLimit === null || anonLimit === null) {
    return {
      ok: true,
      message: `${withKey.host} accepted the request with the key in ${header}, but sends no rate-limit headers to show that it counted the key.`,
    };
  }
  if (keyedLimit > anonLimit) {
    return {
      ok: true,
      message: `The key works with ${withKey.host}: its limit is ${cu(keyedLimit)} compute units with the key and ${cu(anonLimit)} without.`,
    };
  }
  return {
    ok: false,
    message: `${withKey.host} answered with the same limit (${cu(keyedLimit)} compute units) with and without the key: it ignored the key. The header name is the likely cause: the key was sent in ${header}; the Avalanche Data API reads x-glacier-api-key. Check the API key header in Settings before replacing the key.`,
  };
}

function limitOf(seen: RateLimitSeen | null): number | null {
  const n = Number(seen?.limit ?? seen?.policy?.split(';')[0]);
  return Number.isFinite(n) && n > 0 ? n : null;
}

const cu = (n: number | null): string => (n === null ? '?' : n.toLocaleString('en-US'));
