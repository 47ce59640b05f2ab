/**
 * The store keeps records as the teleporter family sends them; the ICM family names the contract
 * `icmContractAddress` instead of `teleporterContractAddress` (as the official SDK models it).
 */
import type { PathFamily } from './api-paths';

/** One stored record in the shape of a path family (the teleporter family is stored as is). */
export function recordForFamily(raw: string, family: PathFamily): string {
  if (family === 'teleporter') return raw;
  return JSON.stringify(toIcm(JSON.parse(raw) as Record<string, unknown>));
}

/** Comma-joined stored records (pieces of a page) in the shape of a path family. */
export function piecesForFamily(pieces: readonly string[], family: PathFamily): readonly string[] {
  if (family === 'teleporter') return pieces;
  return pieces.map((p) => (JSON.parse(`[${p}]`) as Record<string, unknown>[]).map((r) => JSON.stringify(toIcm(r))).join(','));
}

function toIcm(record: Record<string, unknown>): Record<string, unknown> {
  if (!('teleporterContractAddress' in record)) return record;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) {
    if (k === 'teleporterContractAddress') out.icmContractAddress ??= v;
    else if (k === 'icmContractAddress') out.icmContractAddress = v;
    else out[k] = v;
  }
  return out;
}
