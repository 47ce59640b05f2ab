/**
 * How the poll status bar shows one own-nodes chain: a short label ("following", "node down",
 * "catching up 1,204 blocks") and a message a person can act on (shown on hover and click).
 */
import { chainLabel } from '../../../shared/chains';
import type { ChainState, OwnNodeStatus } from '../../../shared/own-nodes';

export type TagType = 'default' | 'info' | 'success' | 'warning' | 'error';

interface OwnNodeView {
  blockchainId: string;
  name: string;
  state: ChainState;
  label: string;
  type: TagType;
  /** The service's message, or what the state means when it gave none; then the figures. */
  detail: string;
}

/** A chain this many blocks (past its confirmations) behind its head is "catching up", not "following". */
const CATCHING_UP_BLOCKS = 5;

const STATE: Record<ChainState, { label: string; type: TagType; meaning: string }> = {
  starting: { label: 'starting', type: 'info', meaning: 'The node has not been read yet.' },
  ok: { label: 'following', type: 'success', meaning: 'Following the chain.' },
  down: {
    label: 'node down',
    type: 'error',
    meaning:
      'The node does not answer, or not with JSON-RPC (unreachable, an HTTP 5xx, an answer that is not JSON, too large, or for another request). It is asked again after the poll interval, doubling up to 60 s.',
  },
  slow: { label: 'slow node', type: 'warning', meaning: 'The node did not answer within the request timeout. It is asked again, later each time.' },
  pruned: {
    label: 'pruned history',
    type: 'error',
    meaning: 'The node no longer has the blocks asked for. Use an archive node, or set a start block it still has.',
  },
  rate_limited: {
    label: 'rate limited',
    type: 'warning',
    meaning: 'The node refuses requests for now (HTTP 429 or a rate-limit error). It is asked again later.',
  },
  wrong_chain: {
    label: 'wrong chain ID',
    type: 'error',
    meaning: 'The node reports another chain than the one saved for it. Check the RPC URL; nothing is read from it meanwhile.',
  },
  internal_error: {
    label: 'internal error',
    type: 'error',
    meaning: 'Reading this chain failed in Teleporter Watch itself, not at the node. It is tried again; if it persists, please report it with the log.',
  },
};

const num = (n: number) => n.toLocaleString('en-US');

/** "skipped 3 (negative number 2, timestamp out of range 1)", or null when nothing was skipped. */
function skippedText(skipped: OwnNodeStatus['skipped'] | undefined): string | null {
  const parts = Object.entries(skipped ?? {}).filter(([, n]) => n > 0);
  if (!parts.length) return null;
  const total = parts.reduce((t, [, n]) => t + n, 0);
  return `skipped ${num(total)} (${parts.map(([r, n]) => `${r.replaceAll('_', ' ')} ${num(n)}`).join(', ')})`;
}

export function ownNodeView(s: OwnNodeStatus, o: { name?: string; confirmations?: number } = {}): OwnNodeView {
  const st = STATE[s.state] ?? { label: s.state, type: 'default' as const, meaning: '' };
  const behind = s.head !== null && s.indexedTo !== null ? Math.max(0, s.head - s.indexedTo - (o.confirmations ?? 0)) : null;
  const catchingUp = (s.state === 'ok' || s.state === 'starting') && behind !== null && behind > CATCHING_UP_BLOCKS;
  const label = catchingUp ? `catching up ${num(behind)} block${behind === 1 ? '' : 's'}` : st.label;
  const figures = [
    `node ${s.host}`,
    s.evmChainId ? `EVM chain ID ${s.evmChainId}` : null,
    s.head !== null ? `head ${num(s.head)}` : null,
    s.indexedTo !== null ? `read to ${num(s.indexedTo)}` : null,
    `${num(s.span)} blocks per eth_getLogs`,
    `${num(s.rpcCalls)} JSON-RPC calls`,
    s.reorgs ? `${num(s.reorgs)} reorg(s)` : null,
    skippedText(s.skipped),
  ].filter(Boolean);
  return {
    blockchainId: s.blockchainId,
    name: o.name || chainLabel(s.blockchainId),
    state: s.state,
    label,
    type: catchingUp ? 'info' : st.type,
    detail: `${s.message || st.meaning} (${figures.join(', ')})`,
  };
}
