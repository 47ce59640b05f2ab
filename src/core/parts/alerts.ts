import type { Clock } from '../../shared/clock';
import type { Settings } from '../../shared/contract';
import { alertChannelKey, type AlertChannelConfig } from '../../shared/alert-schemas';
import { ownChainsOf } from '../../shared/chains';
import type { ChannelTargets } from '../alerts/channels';
import { AlertDispatcher, type DeliveryReport } from '../alerts/dispatcher';
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
    onResult: (r: DeliveryReport) => void;
  },
): AlertsPart {
  const { logger, settings } = deps;
  const fixed = o?.channels ?? [];
  const fixedKeys = new Set(fixed.map(alertChannelKey));
  // A settings channel that is also in the config is sent to once (the config's wins).
  const channels = () => [...fixed, ...settings().alertChannels.filter((c) => !fixedKeys.has(alertChannelKey(c)))];
  // Link-local and metadata targets: the config's channels follow its alerts.allowLinkLocal, the Settings' their own switch.
  const targets = (c: AlertChannelConfig): ChannelTargets =>
    fixedKeys.has(alertChannelKey(c))
      ? { allowLinkLocal: o?.allowLinkLocal ?? false, how: 'config' }
      : { allowLinkLocal: settings().allowLinkLocalAlertTargets, how: 'settings' };
  const dispatcher = new AlertDispatcher(deps.store.db, deps.clock, logger, {
    channels: channels(),
    messageLink: o?.messageLink ?? deps.sourceLink,
    ...(o?.retryBaseMs !== undefined ? { retryBaseMs: o.retryBaseMs } : {}),
    ...(o?.maxRetryMs !== undefined ? { maxRetryMs: o.maxRetryMs } : {}),
    targets,
    onResult: deps.onResult,
    ownChains: () => ownChainsOf(deps.settings().dataSource),
  });
  const failed = (e: unknown) => logger.error('alert delivery failed', { error: e });
  const applying = () => JSON.stringify([channels(), settings().allowLinkLocalAlertTargets]);
  let applied = applying();
  deps.events.tap((e) => {
    if (e.type !== 'settings-changed') return;
    const next = applying();
    if (next === applied) return;
    applied = next;
    dispatcher.setChannels(channels()).catch(failed);
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
