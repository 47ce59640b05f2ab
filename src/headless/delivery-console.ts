/**
 * Alert delivery failures on the console (stderr), not only in the log file: an operator who starts the
 * watcher by hand sees at once that a webhook or Alertmanager refuses its alerts. A dead receiver does
 * not flood the terminal: the first failure of a channel is printed, then at most one "still failing"
 * line per channel per interval, and one line when it delivers again. The errors come redacted from the
 * core and never carry a URL's path or query (webhook URLs hold secrets).
 */
import type { AlertDeliveryResult } from '../core/monitor-core';

/** At most one "still failing" line per channel in this long. */
export const STILL_FAILING_EVERY_MS = 60_000;

interface ChannelState {
  /** Failed attempts not yet printed. */
  unsaid: number;
  lastSaidMs: number;
  lastError: string;
}

export class DeliveryConsole {
  private readonly failing = new Map<string, ChannelState>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
    private readonly everyMs = STILL_FAILING_EVERY_MS,
  ) {}

  readonly observe = (r: AlertDeliveryResult): void => {
    const st = this.failing.get(r.channel);
    if (r.outcome === 'sent') {
      if (!st) return;
      this.failing.delete(r.channel);
      this.write(`alerts to ${r.channel} are delivered again (${r.count} just sent).`);
      return;
    }
    const error = r.error ?? 'unknown error';
    if (!st) {
      this.failing.set(r.channel, { unsaid: 0, lastSaidMs: this.now(), lastError: error });
      this.write(`alerts to ${r.channel} not delivered: ${error} They are kept and retried.`);
      return;
    }
    st.unsaid++;
    st.lastError = error;
    if (this.now() - st.lastSaidMs < this.everyMs) return;
    this.write(`alerts to ${r.channel} still not delivered (${st.unsaid} more failed attempt${st.unsaid === 1 ? '' : 's'}): ${error}`);
    st.unsaid = 0;
    st.lastSaidMs = this.now();
  };
}
