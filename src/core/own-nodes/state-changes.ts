/**
 * Says when a chain's node changes state (down, wrong_chain, back to ok…), once per change, in plain
 * words with the service's message: for the core's log and the headless watcher's console.
 */
import type { OwnNodeStatus } from '../../shared/own-nodes';

interface StateChange {
  level: 'info' | 'warn';
  line: string;
}

export class OwnNodeStateChanges {
  private readonly last = new Map<string, string>();

  /** The chains whose state or message changed since the last call ('starting' is not news). */
  changes(statuses: readonly OwnNodeStatus[]): StateChange[] {
    const out: StateChange[] = [];
    for (const s of statuses) {
      if (s.state === 'starting') continue;
      const key = `${s.state}\n${s.message}`;
      if (this.last.get(s.blockchainId) === key) continue;
      const first = !this.last.has(s.blockchainId);
      this.last.set(s.blockchainId, key);
      if (s.state === 'ok') {
        if (!first || statuses.some((x) => x.state !== 'ok')) out.push({ level: 'info', line: `own node ${s.name} (${s.host}): ok, reading.` });
      } else {
        out.push({ level: 'warn', line: `own node ${s.name} (${s.host}): ${s.state}: ${s.message || 'no message.'}` });
      }
    }
    return out;
  }
}
