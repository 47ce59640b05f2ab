import type { MonitorInput } from '../../../shared/contract';
import { chainByEvmChainId, chainsOf, findChain } from '../../../shared/chains';
import { parseMonitorInput } from '../../../shared/contract';
import { parseBlockchainId, parseChainRef, parseEvmAddress, parsePageSize, type Network } from '../../../shared/validators';
import { splitError, type FieldErrors } from './field-errors';

export interface FilterForm {
  network: Network;
  /** Chain name from the registry, cb58 blockchain ID or decimal EVM chain ID. */
  source: string;
  destination: string;
  /** Either chain: a name or cb58 ID (the API's blockchainId filter takes cb58 only). */
  either: string;
  from: string;
  to: string;
  pageSize: string;
}

type FilterField = keyof FilterForm;
export type BrowseQuery = Omit<NonNullable<MonitorInput<'browseMessages'>>, 'pageToken'>;

export const emptyFilterForm = (network: Network = 'mainnet'): FilterForm => ({
  network,
  source: '',
  destination: '',
  either: '',
  from: '',
  to: '',
  pageSize: '10',
});

/** Contract field → form field, for errors the core reports. */
export const FILTER_FIELD_MAP: Record<string, FilterField> = {
  sourceBlockchainId: 'source',
  destinationBlockchainId: 'destination',
  blockchainId: 'either',
  from: 'from',
  to: 'to',
  pageSize: 'pageSize',
  network: 'network',
};

const knownNames = (network: Network) =>
  chainsOf(network)
    .map((c) => c.name)
    .join(', ');

/** A chain typed by name (within the network), cb58 ID or EVM chain ID → the value the API takes. */
export function resolveChainInput(value: string, network: Network, what: string): { ok: true; value: string } | { ok: false; error: string } {
  const s = value.trim();
  // IDs go to the API as typed (it takes both forms); names resolve through the registry.
  const r = parseChainRef(s, what);
  if (r.ok) return { ok: true, value: r.value.value };
  const named = findChain(s, network);
  if (named) return { ok: true, value: named.blockchainId };
  // Short text that is neither: most likely a mistyped chain name.
  if (!/^[0-9]+$/.test(s) && s.length < 40) {
    return { ok: false, error: `${what}: "${s}" is not a chain known on ${network} (${knownNames(network)}), a cb58 blockchain ID or a decimal EVM chain ID.` };
  }
  return { ok: false, error: r.error };
}

function resolveEither(value: string, network: Network): { ok: true; value: string } | { ok: false; error: string } {
  const s = value.trim();
  const named = findChain(s, network) ?? (/^[0-9]+$/.test(s) ? chainByEvmChainId(s) : undefined);
  if (named) return { ok: true, value: named.blockchainId };
  if (/^[0-9]+$/.test(s)) return { ok: false, error: `Either chain takes a chain name or a cb58 blockchain ID; EVM chain ID ${s} is not in the registry.` };
  const r = parseBlockchainId(s, 'Either chain');
  if (r.ok) return r;
  if (s.length < 40) return { ok: false, error: `Either chain: "${s}" is not a chain known on ${network} (${knownNames(network)}) nor a cb58 blockchain ID.` };
  return r;
}

/**
 * Turns the form into a browseMessages query, or field errors (then no request may be sent).
 * The final check is the contract's own schema, so the UI refuses exactly what the core would.
 */
export function buildBrowseQuery(form: FilterForm): { ok: true; query: BrowseQuery } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const query: BrowseQuery = { network: form.network };
  const chain = (field: 'source' | 'destination', key: 'sourceBlockchainId' | 'destinationBlockchainId', what: string) => {
    if (!form[field].trim()) return;
    const r = resolveChainInput(form[field], form.network, what);
    if (r.ok) query[key] = r.value;
    else errors[field] = r.error;
  };
  chain('source', 'sourceBlockchainId', 'Source chain');
  chain('destination', 'destinationBlockchainId', 'Destination chain');
  if (form.either.trim()) {
    const r = resolveEither(form.either, form.network);
    if (r.ok) query.blockchainId = r.value;
    else errors.either = r.error;
  }
  for (const [field, what] of [
    ['from', 'Sender'],
    ['to', 'Recipient'],
  ] as const) {
    if (!form[field].trim()) continue;
    const r = parseEvmAddress(form[field], what);
    if (r.ok) query[field] = r.value;
    else errors[field] = r.error;
  }
  const size = parsePageSize(String(form.pageSize ?? '').trim());
  if (size.ok) query.pageSize = size.value;
  else errors.pageSize = size.error;
  if (Object.keys(errors).length) return { ok: false, errors };
  try {
    parseMonitorInput('browseMessages', query);
  } catch (e) {
    const { fields, general } = splitError(e, FILTER_FIELD_MAP);
    return { ok: false, errors: general ? { network: general.message } : fields };
  }
  return { ok: true, query };
}
