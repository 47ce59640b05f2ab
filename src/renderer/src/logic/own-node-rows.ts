/**
 * How the Settings page offers "your own nodes": one row per chain, plain strings the inputs edit,
 * turned into the contract's shape on Save and checked field by field with the core's own schema.
 */
import { OwnNodesSchema, TELEPORTER_MESSENGER_ADDRESS, type OwnNodes, type OwnNodesInput } from '../../../shared/own-nodes';
import type { FieldErrors } from './field-errors';

export interface OwnNodeRow {
  name: string;
  blockchainId: string;
  rpcUrl: string;
  wsUrl: string;
  /** Addresses separated by commas, spaces or new lines; empty = the registry's messenger. */
  messengers: string;
  network: 'default' | 'mainnet' | 'fuji';
  /** Empty = 0 (the whole history). */
  startBlock: number | null;
}

export interface OwnNodesForm {
  rows: OwnNodeRow[];
  confirmations: number | null;
  pollIntervalMs: number | null;
  requestTimeoutMs: number | null;
}

export const DEFAULT_MESSENGER = TELEPORTER_MESSENGER_ADDRESS;
/** Where every field of own nodes is reported (the core's invalid_input fields start so too). */
export const OWN_NODES_FIELD = 'dataSource.ownNodes';

export const emptyRow = (): OwnNodeRow => ({ name: '', blockchainId: '', rpcUrl: '', wsUrl: '', messengers: '', network: 'default', startBlock: null });

export function toForm(o: OwnNodes | null): OwnNodesForm {
  if (!o) return { rows: [emptyRow()], confirmations: 1, pollIntervalMs: 2000, requestTimeoutMs: 15000 };
  return {
    rows: o.chains.map((c) => ({
      name: c.name ?? '',
      blockchainId: c.blockchainId,
      rpcUrl: c.rpcUrl,
      wsUrl: c.wsUrl ?? '',
      messengers: (c.messengers ?? []).join(', '),
      network: c.network ?? 'default',
      startBlock: c.startBlock ?? null,
    })),
    confirmations: o.confirmations,
    pollIntervalMs: o.pollIntervalMs,
    requestTimeoutMs: o.requestTimeoutMs,
  };
}

/** An empty number field becomes NaN so the schema names it, never silently dropped. */
const n = (v: number | null) => (v === null ? Number.NaN : v);

/**
 * The contract's input. The EVM chain ID is left out: the core asks each node for it on every save,
 * so a row whose URL changed is never held to the old node's ID.
 */
export function toOwnNodes(f: OwnNodesForm): OwnNodesInput {
  return {
    chains: f.rows.map((r) => {
      const messengers = r.messengers.split(/[\s,;]+/).filter(Boolean);
      return {
        ...(r.name.trim() ? { name: r.name.trim() } : {}),
        rpcUrl: r.rpcUrl.trim(),
        ...(r.wsUrl.trim() ? { wsUrl: r.wsUrl.trim() } : {}),
        blockchainId: r.blockchainId.trim(),
        ...(messengers.length ? { messengers } : {}),
        ...(r.network !== 'default' ? { network: r.network } : {}),
        ...(r.startBlock !== null ? { startBlock: r.startBlock } : {}),
      };
    }),
    confirmations: n(f.confirmations),
    pollIntervalMs: n(f.pollIntervalMs),
    requestTimeoutMs: n(f.requestTimeoutMs),
  };
}

/** Every problem of the form at once, keyed as the core keys its own (`dataSource.ownNodes.chains.0.rpcUrl`). */
export function ownNodesErrors(input: OwnNodesInput): FieldErrors {
  const r = OwnNodesSchema.safeParse(input);
  if (r.success) return {};
  const out: FieldErrors = {};
  for (const issue of r.error.issues) {
    const key = [OWN_NODES_FIELD, ...issue.path.map(String)].join('.');
    const message = /expected number, received NaN/i.test(issue.message) ? 'Enter a number.' : issue.message;
    out[key] ??= message;
  }
  return out;
}

/**
 * The message for one row's field: `messengers` also takes a problem with one of its addresses
 * (`messengers.1`); `chains.0` alone (a duplicate ID, say) goes to the blockchain ID.
 */
export function rowError(errors: FieldErrors, i: number, field: keyof OwnNodeRow | 'evmChainId'): string | undefined {
  const base = `${OWN_NODES_FIELD}.chains.${i}.${field}`;
  const hit = Object.entries(errors).find(([k]) => k === base || k.startsWith(`${base}.`))?.[1];
  if (hit || field !== 'blockchainId') return hit;
  // The node reporting another EVM chain ID than the saved one is a problem of which chain this is.
  return errors[`${OWN_NODES_FIELD}.chains.${i}.evmChainId`] ?? errors[`${OWN_NODES_FIELD}.chains.${i}`];
}
