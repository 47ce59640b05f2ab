import type { MonitorEvent } from '../../shared/contract';
import type { Logger } from '../log/logger';
import type { Redactor } from '../secrets/redact';
import type { Part } from './part';

type Listener = (event: MonitorEvent) => void;

/**
 * The core's event stream: every event is redacted once, shown to the core's own observers (taps:
 * metrics, alert channels on settings changes), then to the shells' listeners. A listener that throws
 * is logged and the others still hear the event. Stopping it drops the listeners.
 */
export class EventHub implements Part {
  readonly name = 'events';
  private readonly listeners = new Set<Listener>();
  private readonly taps: Listener[] = [];

  constructor(
    private readonly redactor: Redactor,
    private readonly logger: Logger,
  ) {}

  /** A part of the core that follows the events (not cleared on stop; called before any listener). */
  tap(observer: Listener): void {
    this.taps.push(observer);
  }

  readonly emit = (event: MonitorEvent): void => {
    const e = this.redactor.value(event);
    for (const t of this.taps) t(e);
    for (const l of this.listeners) {
      try {
        l(e);
      } catch (err) {
        this.logger.warn('event listener failed', { error: err });
      }
    }
  };

  onEvent(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  stop(): void {
    this.listeners.clear();
  }
}
