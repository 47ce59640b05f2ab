import type { Transition } from '../../shared/contract';
import { chainLabel } from '../../shared/chains';
import { undoneText } from '../../shared/transitions';

const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** The title and body of a notification for one transition. */
/** The title and body of a notification for one transition (`chainName`: a chain's configured name, else the registry's). */
export function notificationText(
  t: Omit<Transition, 'id'>,
  now: number,
  pendingSince: number | null,
  chainName: (blockchainId: string) => string = chainLabel,
): { title: string; body: string } {
  const route = `${chainLabel(t.sourceBlockchainId)} → ${chainLabel(t.destinationBlockchainId)}`;
  const tail = `${route} · message ${short(t.messageId)}`;
  switch (t.kind) {
    case 'new':
      return { title: 'New cross-chain message', body: tail };
    case 'left_pending':
      return { title: t.toStatus.startsWith('delivered') ? 'Message delivered' : `Message is now ${t.toStatus}`, body: tail };
    case 'receipt_delivered':
      return { title: 'Receipt delivered', body: tail };
    case 'delivery_undone':
      return { title: 'Delivery undone by a reorg', body: `${undoneText(t.kind, chainName(t.destinationBlockchainId))} · ${tail}` };
    case 'receipt_undone':
      return { title: 'Receipt undone by a reorg', body: `${undoneText(t.kind, chainName(t.sourceBlockchainId))} · ${tail}` };
    case 'stuck': {
      const minutes = pendingSince === null ? null : Math.round((now - pendingSince) / 60_000);
      return { title: 'Message stuck pending', body: minutes === null ? tail : `${tail} · pending for ${minutes} min` };
    }
  }
}
