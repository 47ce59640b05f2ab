/**
 * Proof that a bench fails: the three faults every bench's test injects (never set in a measured run).
 * BENCH_INJECT_MISSES drops that many of the watcher's reports before judging, BENCH_INJECT_DUPLICATES
 * reports that many twice, and BENCH_INJECT_OVERSPEND makes that many more list requests at the service
 * as the watcher's caller (its key, or none), so the service's count, the only one judged, shows them.
 */
import { request } from 'undici';
import { envNumber } from './targets';

export interface Injected {
  misses: number;
  duplicates: number;
  overspend: number;
}

export const injected = (): Injected => ({
  misses: envNumber('BENCH_INJECT_MISSES', 0),
  duplicates: envNumber('BENCH_INJECT_DUPLICATES', 0),
  overspend: envNumber('BENCH_INJECT_OVERSPEND', 0),
});

/** The reports as judged: the first `misses` dropped, the next `duplicates` reported twice. */
export function tamper<T>(reports: readonly T[], i: Pick<Injected, 'misses' | 'duplicates'>): T[] {
  const kept = reports.slice(i.misses);
  return [...kept, ...kept.slice(0, i.duplicates)];
}

/** `n` more list requests at the service as the caller with `key` (none: the keyless caller). */
export async function overspend(serviceUrl: string, n: number, key?: string): Promise<void> {
  for (let k = 0; k < n; k++) {
    const r = await request(`${serviceUrl}/v1/teleporter/messages?pageSize=1`, { headers: key ? { 'x-glacier-api-key': key } : {} });
    await r.body.dump();
  }
}
