import type { Clock } from '../../shared/clock';
import { clockTime } from '../../shared/format';
import type { Settings } from '../../shared/contract';
import type { OwnNodeStatus } from '../../shared/own-nodes';
import { sourceName, sourceTitle } from '../../shared/sources';
import { SourceHealthTracker, type CycleReport } from '../sources/source-health';
import type { Store } from '../store';
import type { Announcement, EpisodeStart } from '../store/relayer-episodes';
import { EPISODE_WORDS } from '../../shared/vocabulary';
import type { AlertTimeline } from './alert-timeline';
import type { Part } from './part';
import { MINUTE_MS } from '../../shared/time';

interface SourceHealthPart extends Part {
  readonly health: SourceHealthTracker;
  /** The poller's report of each cycle (before the after-cycle list runs). */
  observeCycle(r: CycleReport): void;
  /** After each cycle: the chains' states, then the source's and each chain's alert fired or resolved. */
  afterCycle(): void;
}

const HEALTH_KINDS = ['source_down', 'chain_down'] as const;
const sourceKey = 'source-down';
const chainKey = (blockchainId: string) => `chain-down:${blockchainId}`;

const lasted = (from: number, to: number): string => `${Math.max(1, Math.round((to - from) / MINUTE_MS))} min`;
const HELD = 'Relayer, route, fuel and stuck alerts that depend on it are held until it is read again; nothing is dropped, only later.';

/**
 * The data source's health as a first-class state (src/core/sources/source-health.ts) and its own
 * alert: "Can't read <source> since 14:02: <reason>" when reads have failed SOURCE_DOWN_AFTER_MS, and
 * its recovery; with your own nodes the same per chain. The episodes go through the outbox like every
 * alert (notifications, Activity, Alertmanager, webhooks). What another source's health was is closed
 * quietly when the source changes: it is no longer read, not back.
 */
export function sourceHealthPart(d: {
  store: Store;
  clock: Clock;
  settings: () => Settings;
  /** Where the health alerts fire and resolve (listed in Activity, logged in words, announced). */
  timeline: Pick<AlertTimeline, 'open' | 'openElsewhere' | 'fire' | 'resolve'>;
  /** Each own node's state while own nodes are the data source (null otherwise). */
  chainStatuses: () => OwnNodeStatus[] | null;
}): SourceHealthPart {
  const health = new SourceHealthTracker(d.clock, () => d.store.source());
  const episodes = d.timeline;

  function fireSource(now: number): void {
    const down = health.sourceDown();
    const open = episodes.open(['source_down']).get(sourceKey);
    const source = d.store.source();
    if (down && !open) {
      const e: EpisodeStart = {
        key: sourceKey,
        kind: 'source_down',
        network: d.settings().network,
        subject: sourceTitle(source),
        sourceChain: '',
        destinationChain: '',
        startedAt: down.since,
      };
      episodes.fire(e, now, {
        title: EPISODE_WORDS.source_down.fire(sourceTitle(source)),
        body: `Can't read ${sourceName(source)} since ${clockTime(down.since)}: ${down.reason} ${HELD}`,
      });
    } else if (!down && open && health.upNow()) {
      episodes.resolve(open, now, {
        title: EPISODE_WORDS.source_down.resolve(sourceTitle(source)),
        body: `${sourceName(source)} is read again (it could not be read for about ${lasted(open.startedAt, now)}). Alerts held meanwhile are judged on what it shows now.`,
      });
    }
  }

  /** `known`: the chains' states were read this cycle (after a restart, before the service answers, they were not). */
  function fireChains(now: number, known: boolean): void {
    const open = episodes.open(['chain_down']);
    const down = new Map(health.chainsDown().map((c) => [chainKey(c.blockchainId), c]));
    for (const [key, c] of down) {
      if (open.has(key)) continue;
      const e: EpisodeStart = {
        key,
        kind: 'chain_down',
        network: d.settings().network,
        subject: c.name,
        sourceChain: c.blockchainId,
        destinationChain: '',
        startedAt: c.since,
      };
      episodes.fire(e, now, {
        title: EPISODE_WORDS.chain_down.fire(c.name),
        body: `Can't read ${c.name} (your own node) since ${clockTime(c.since)}: ${c.reason} Alerts on its routes and wallets are held until it is read again; the other chains are read as before.`,
      });
    }
    // Until the service has said which chains it reads, an open alert is neither closed nor resolved.
    if (!known) return;
    const configured = new Set(health.knownChains().map(chainKey));
    for (const [key, e] of open) {
      if (down.has(key)) continue;
      // A chain no longer configured is closed quietly; one read again says so.
      const text: Announcement | null =
        configured.has(key) && health.sees(e.sourceChain)
          ? {
              title: EPISODE_WORDS.chain_down.resolve(e.subject),
              body: `${e.subject} (your own node) is read again (it could not be read for about ${lasted(e.startedAt, now)}).`,
            }
          : null;
      if (text === null && configured.has(key)) continue; // not down, not seen yet either (starting, catching up): wait
      episodes.resolve(e, now, text);
    }
  }

  return {
    name: 'source-health',
    health,
    observeCycle: (r) => health.observeCycle(r),
    afterCycle() {
      const now = d.clock.now();
      const statuses = d.chainStatuses();
      health.observeChains(statuses, now);
      // Another source's health alerts: that source is no longer read (a switch). They end saying so, so that
      // Alertmanager and webhooks hear the end too; it is not a recovery.
      for (const e of episodes.openElsewhere(HEALTH_KINDS)) {
        episodes.resolve(e, now, {
          title: `No longer reading ${e.subject}`,
          body: `The data source was switched: ${e.subject} is no longer read, so its "Can't read" alert ends here (it was not seen to come back).`,
        });
      }
      fireSource(now);
      fireChains(now, statuses !== null);
    },
  };
}
