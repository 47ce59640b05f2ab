/**
 * Learning receipts from the messages that carry them back (receipt-carriers.ts), plugged into the
 * poll cycle as a hook: it sees every message the cycle reads, and after each network asks by ID for
 * what the carriers hinted at (the originals they name, unwatched pending carriers): only the API's
 * answers reach the engine.
 */
import type { Clock } from '../../shared/clock';
import type { Transition } from '../../shared/contract';
import type { TeleporterMessage } from '../../shared/messages';
import type { CachedMessages } from '../store';
import type { TransitionEngine } from '../watch/engine';
import type { CycleHook } from './executor';
import { ReceiptCarriers } from './receipt-carriers';
import { recheckById } from './recheck-by-id';

interface ReceiptHookDeps {
  clock: Clock;
  messages: CachedMessages;
  engine: TransitionEngine;
  onTransitions: (t: Transition[]) => void;
}

export function receiptHook(d: ReceiptHookDeps): CycleHook {
  const carriers = new ReceiptCarriers(d.clock, d.messages);
  const learn = (network: 'mainnet' | 'fuji', messages: readonly TeleporterMessage[]): void => carriers.learn(messages, network);
  return {
    beforeNetwork: () => carriers.refresh(),
    messages: learn,
    afterNetwork: ({ network, client, cycle, rereadFromTs }) =>
      recheckById(client, carriers.toAsk(network, rereadFromTs), {
        network,
        engine: d.engine,
        cycle,
        onTransitions: d.onTransitions,
        onMessages: (m) => learn(network, m),
      }),
  };
}
