/**
 * Alert delivery failures on the console (stderr), not only in the log file: an operator who starts the
 * watcher by hand sees at once that a webhook or Alertmanager refuses its alerts, since when, and when
 * it is tried next. A dead receiver does not flood the terminal: a channel's line is printed when it
 * starts failing, when the reason changes (HTTP 500 to ECONNREFUSED), and when it delivers again, never
 * per attempt (the log file and /metrics count those). The errors come redacted from the core and never
 * carry a URL's path or query (webhook URLs hold secrets).
 */
import type { AlertDeliveryResult } from '../core';
import { clockTime, formatDuration } from '../shared/format';

const alerts = (n: number) => `${n} alert${n === 1 ? '' : 's'}`;

export class DeliveryConsole {
  /** The reason each failing channel last printed. */
  private readonly failing = new Map<string, string>();

  constructor(
    private readonly write: (line: string) => void,
    private readonly now: () => number = Date.now,
  ) {}

  readonly observe = (r: AlertDeliveryResult): void => {
    const said = this.failing.get(r.channel);
    const since = r.failingSince === null ? '' : ` since ${clockTime(r.failingSince)}`;
    if (r.outcome === 'sent') {
      if (said === undefined) return;
      this.failing.delete(r.channel);
      this.write(`alerts to ${r.channel} are delivered again (${r.pending ? `${alerts(r.pending)} still to send` : 'all sent'}).`);
      return;
    }
    const reason = r.reason ?? 'error';
    if (said === reason) return;
    this.failing.set(r.channel, reason);
    const next = r.nextAttemptAt === null ? '' : `; next try in ${formatDuration((r.nextAttemptAt - this.now()) / 1000)}`;
    const error = r.error ?? 'unknown error';
    if (said === undefined) {
      this.write(`alerts to ${r.channel} failing${since} (${reason})${next}; ${alerts(r.pending)} kept, none lost: ${error}`);
    } else {
      this.write(`alerts to ${r.channel} still failing${since}, now ${reason} (${r.failures} attempts)${next}; ${alerts(r.pending)} kept: ${error}`);
    }
  };
}
