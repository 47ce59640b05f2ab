import type { Transition } from '../../shared/contract';
import { chainLabel, routeLabel, type OwnChain } from '../../shared/chains';
import { undoneText } from '../../shared/transitions';
import { TRANSITION_WORDS, statusWord } from '../../shared/vocabulary';
import { MINUTE_MS } from '../../shared/time';

const short = (id: string) => (id.length > 12 ? `${id.slice(0, 8)}…${id.slice(-4)}` : id);

/** The title and body of a notification for one transition (`own`: your own nodes' chains, named as you named them). */
export function notificationText(
  t: Omit<Transition, 'id'>,
  now: number,
  pendingSince: number | null,
  own: readonly OwnChain[] = [],
): { title: string; body: string } {
  const chainName = (id: string) => chainLabel(id, own);
  const route = routeLabel(t.sourceBlockchainId, t.destinationBlockchainId, own);
  const tail = `${route} · message ${short(t.messageId)}`;
  switch (t.kind) {
    case 'new':
      return { title: TRANSITION_WORDS.new.title, body: tail };
    case 'left_pending':
      return { title: t.toStatus.startsWith('delivered') ? TRANSITION_WORDS.left_pending.title : `Message is now ${statusWord(t.toStatus)}`, body: tail };
    case 'receipt_delivered':
      return { title: TRANSITION_WORDS.receipt_delivered.title, body: tail };
    case 'delivery_undone':
      return { title: TRANSITION_WORDS.delivery_undone.title, body: `${undoneText(t.kind, chainName(t.destinationBlockchainId))} · ${tail}` };
    case 'receipt_undone':
      return { title: TRANSITION_WORDS.receipt_undone.title, body: `${undoneText(t.kind, chainName(t.sourceBlockchainId))} · ${tail}` };
    case 'stuck': {
      const minutes = pendingSince === null ? null : Math.round((now - pendingSince) / MINUTE_MS);
      return { title: TRANSITION_WORDS.stuck.title, body: minutes === null ? tail : `${tail} · pending for ${minutes} min` };
    }
  }
}
