import type { Clock } from '../../shared/clock';
import type { Settings } from '../../shared/contract';
import { alertChannelKey } from '../../shared/alert-schemas';
import { ownChainsOf } from '../../shared/chains';
import { AlertDispatcher } from '../alerts/dispatcher';
import type { Logger } from '../log/logger';
import type { MonitorCoreOptions } from '../monitor-core';
import type { Store } from '../store';
import type { EventHub } from './events';
import type { Part } from './part';

interface AlertsPart extends Part {
  readonly dispatcher: AlertDispatcher;
  /** After each cycle: sends what is due without waiting (receivers may be slow or down, and a poll cycle never waits for them). */
  afterCycle(): void;
}

/**
 * Alert channels (Alertmanager, webhooks) fed from the outbox: those of the options (the headless
 * config) plus those in Settings, re-read on every settings change. Started, it sends what an earlier
 * run left; stopped, it gives a last delivery `closeGraceMs` and leaves the rest for the next start.
 */
export function alertsPart(
  o: MonitorCoreOptions['alerts'],
  deps: {
    store: Store;
    clock: Clock;
    logger: Logger;
    settings: () => Settings;
    events: EventHub;
    sourceLink: (messageId: string) => string;
    onResult: (channel: string, outcome: 'sent' | 'failed', n: number, error?: string) => void;
  },
): AlertsPart {
  const { logger, settings } = deps;
  const fixed = o?.channels ?? [];
  const fixedKeys = new Set(fixed.map(alertChannelKey));
  // A settings channel that is also in the config is sent to once (the config's wins).
  const channels = () => [...fixed, ...settings().alertChannels.filter((c) => !fixedKeys.has(alertChannelKey(c)))];
  const dispatcher = new AlertDispatcher(deps.store.db, deps.clock, logger, {
    channels: channels(),
    messageLink: o?.messageLink ?? deps.sourceLink,
    ...(o?.retryBaseMs !== undefined ? { retryBaseMs: o.retryBaseMs } : {}),
    ...(o?.maxRetryMs !== undefined ? { maxRetryMs: o.maxRetryMs } : {}),
    onResult: deps.onResult,
    ownChains: () => ownChainsOf(deps.settings().dataSource),
  });
  const failed = (e: unknown) => logger.error('alert delivery failed', { error: e });
  let applied = JSON.stringify(channels());
  deps.events.tap((e) => {
    if (e.type !== 'settings-changed') return;
    const next = channels();
    if (JSON.stringify(next) === applied) return;
    applied = JSON.stringify(next);
    dispatcher.setChannels(next).catch(failed);
  });
  const kick = () => void dispatcher.drain().catch(failed);
  return {
    name: 'alerts',
    dispatcher,
    afterCycle: kick,
    start: kick,
    stop: () => dispatcher.close(o?.closeGraceMs),
  };
}
