/**
 * The query of both list operations, validated with zod on top of the shared validators. Unknown
 * parameters are ignored (as the public API does); every error names its parameter.
 */
import { z } from 'zod';
import { fail, type Parsed } from '../shared/result';
import { canonicalNetwork, parseBlockchainId, parseChainRef, parseEvmAddress, parseNetwork, parsePageSize, type ChainRef } from '../shared/validators';
import type { ListOperation } from './api-paths';
import { queryFingerprint } from './page-token';
import type { StoreQuery } from './store/record-store';

interface ListRequest {
  operation: ListOperation;
  pageSize: number;
  pageToken?: string;
  filter: StoreQuery;
  /** Identifies operation + filters, so a page token cannot be replayed on another query. */
  fingerprint: string;
}

function param<T>(name: string, parse: (s: string) => Parsed<T>) {
  return z
    .string()
    .transform((s, ctx) => {
      if (s.trim() === '') {
        ctx.addIssue({ code: 'custom', message: `${name} must not be empty (leave it out to not filter by it).` });
        return z.NEVER;
      }
      const r = parse(s);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }
      return r.value;
    })
    .optional();
}

const common = {
  pageSize: z
    .string()
    .optional()
    .transform((s, ctx) => {
      const r = parsePageSize(s);
      if (!r.ok) {
        ctx.addIssue({ code: 'custom', message: r.error });
        return z.NEVER;
      }
      return r.value;
    }),
  // An empty token is treated as "first page", as clients often send the last response's empty value.
  pageToken: z
    .string()
    .max(4096, 'pageToken is malformed: pass the nextPageToken of a previous response unchanged.')
    .optional()
    .transform((s) => (s === '' ? undefined : s)),
  network: param('network', parseNetwork),
};

const ListQuerySchema = z.object({
  ...common,
  sourceBlockchainId: param('sourceBlockchainId', (s) => parseChainRef(s, 'sourceBlockchainId')),
  destinationBlockchainId: param('destinationBlockchainId', (s) => parseChainRef(s, 'destinationBlockchainId')),
  blockchainId: param('blockchainId', (s) =>
    /^\d+$/.test(s.trim())
      ? fail(
          `blockchainId must be a cb58 blockchain ID; "${s.trim()}" looks like an EVM chain ID, which only sourceBlockchainId and destinationBlockchainId accept.`,
        )
      : parseBlockchainId(s, 'blockchainId'),
  ),
  from: param('from', (s) => parseEvmAddress(s, 'from')),
  to: param('to', (s) => parseEvmAddress(s, 'to')),
});

const AddressQuerySchema = z.object({
  ...common,
  address: param('address', (s) => parseEvmAddress(s, 'address')),
});

const chainKey = (c: ChainRef | undefined) => (c ? `${c.kind}:${c.value}` : undefined);

/** The first value of every parameter; a parameter given twice is an error (it would be ambiguous). */
function singleValues(params: URLSearchParams, known: readonly string[]): { values: Record<string, string>; errors: string[] } {
  const values: Record<string, string> = {};
  const errors: string[] = [];
  for (const name of known) {
    const all = params.getAll(name);
    if (all.length > 1) errors.push(`${name} must be given at most once.`);
    if (all.length > 0) values[name] = all[0]!;
  }
  return { values, errors };
}

export function parseListRequest(
  operation: ListOperation,
  params: URLSearchParams,
  pathAddress?: string,
): { ok: true; value: ListRequest } | { ok: false; errors: string[] } {
  const schema = operation === 'list' ? ListQuerySchema : AddressQuerySchema;
  const { values, errors } = singleValues(
    params,
    Object.keys(schema.shape).filter((k) => k !== 'address'),
  );
  if (operation === 'address') values.address = pathAddress ?? '';
  const r = schema.safeParse(values);
  if (!r.success) errors.push(...r.error.issues.map((i) => i.message));
  if (errors.length > 0 || !r.success) return { ok: false, errors };
  const d = r.data as z.output<typeof ListQuerySchema> & z.output<typeof AddressQuerySchema>;
  const network = d.network ? canonicalNetwork(d.network) : undefined;
  const filter: StoreQuery = {};
  if (network) filter.network = network;
  if (d.sourceBlockchainId) filter.source = d.sourceBlockchainId;
  if (d.destinationBlockchainId) filter.destination = d.destinationBlockchainId;
  if (d.blockchainId) filter.blockchainId = d.blockchainId;
  if (d.from) filter.from = d.from.toLowerCase();
  if (d.to) filter.to = d.to.toLowerCase();
  if (d.address) filter.address = d.address.toLowerCase();
  const fingerprint = queryFingerprint(operation, {
    network,
    source: chainKey(filter.source),
    destination: chainKey(filter.destination),
    blockchainId: filter.blockchainId,
    from: filter.from,
    to: filter.to,
    address: filter.address,
  });
  const value: ListRequest = { operation, pageSize: d.pageSize, filter, fingerprint };
  if (d.pageToken !== undefined) value.pageToken = d.pageToken;
  return { ok: true, value };
}
