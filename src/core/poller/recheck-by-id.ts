/**
 * Re-checks due messages one by one through the single-message operation: for a message deep in the
 * lists (old, on a busy address), one request instead of paging down to it. What comes back goes to
 * the transition engine like a list page does (same exactly-once rules).
 */
import type { Transition } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import type { TeleporterMessage } from '../../shared/messages';
import type { Network } from '../../shared/validators';
import type { DataApiClient } from '../data-api/client';
import type { TransitionEngine } from '../watch/engine';
import type { CycleBudget } from './scan';
import { RECHECK_PARALLEL_REQUESTS } from '../../shared/policy';

interface RecheckByIdOptions {
  network: Network;
  engine: TransitionEngine;
  cycle: CycleBudget;
  onTransitions: (t: Transition[]) => void;
  /** The messages fetched, after the engine saw them (the poller's cycle hooks). */
  onMessages?: (messages: readonly TeleporterMessage[]) => void;
}

/** Asks for each ID while the cycle budget lasts (the rest waits for a later cycle); returns the first hard error. */
export async function recheckById(client: DataApiClient, ids: readonly string[], o: RecheckByIdOptions): Promise<ErrorInfo | null> {
  for (let i = 0; i < ids.length; i += RECHECK_PARALLEL_REQUESTS) {
    const batch: string[] = [];
    for (const id of ids.slice(i, i + RECHECK_PARALLEL_REQUESTS)) if (o.cycle.take()) batch.push(id);
    if (!batch.length) return null;
    const answers = await Promise.all(batch.map((id) => client.getMessage(id)));
    const found: TeleporterMessage[] = [];
    for (const a of answers) {
      if (a.ok || a.error.kind === 'not_found' || a.skipped) o.cycle.answered++;
      if (a.ok) found.push(a.value);
      // A vanished message is the sweep's business; one skipped at the boundary was counted by the client.
      else if (a.error.kind !== 'not_found' && !a.skipped) return a.error;
    }
    const t = o.engine.observe(found, o.network);
    if (t.length) o.onTransitions(t);
    if (found.length) o.onMessages?.(found);
    if (batch.length < RECHECK_PARALLEL_REQUESTS) return null;
  }
  return null;
}
