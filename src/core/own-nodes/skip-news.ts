/**
 * Says, once per chain and reason, that a chain's node sent something the indexer skipped (a malformed
 * log, a block time out of range…): for the core's log and the headless watcher's console. Later ones
 * of the same kind are only counted (the status bar, teleporter_watch_own_node_skipped).
 */
import type { OwnNodeStatus, SkipReason } from '../../shared/own-nodes';

export class OwnNodeSkipNews {
  private readonly said = new Set<string>();

  /** One line per chain and reason met for the first time since the core started. */
  lines(statuses: readonly OwnNodeStatus[]): string[] {
    const out: string[] = [];
    for (const s of statuses) {
      for (const [reason, n] of Object.entries(s.skipped) as [SkipReason, number][]) {
        const key = `${s.blockchainId}\n${reason}`;
        if (!n || this.said.has(key)) continue;
        this.said.add(key);
        out.push(
          `own node ${s.name} (${s.host}): skipped what the node sent: ${reason.replaceAll('_', ' ')} (${n} so far); the chain reads on. Later ones are only counted (status bar, teleporter_watch_own_node_skipped).`,
        );
      }
    }
    return out;
  }
}
