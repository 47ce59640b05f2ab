/**
 * The alert episodes' one door: every rule (relayer silent, route backlog, fuel low, failed executions, and
 * any kind added to EPISODE_WORDS) fires and resolves its episodes here, so each fire and resolve is listed
 * in Activity, announced while notifications are on, logged in words, and sent to the renderer at once.
 */
import { chainLabel, ownChainsOf } from '../../shared/chains';
import type { AlertEntry, MonitorEvent, Settings } from '../../shared/contract';
import { alertSentence, type EpisodeKind } from '../../shared/vocabulary';
import type { Logger } from '../log/logger';
import type { Store } from '../store';
import type { Announcement, EpisodeStart, OpenEpisode } from '../store/relayer-episodes';
import type { Part } from './part';

export interface AlertTimeline extends Part {
  /** The current data source's episodes not resolved yet, by key (only those of these kinds when given). */
  open(kinds?: readonly EpisodeKind[]): Map<string, OpenEpisode>;
  /** Other sources' episodes of these kinds not resolved yet. */
  openElsewhere(kinds: readonly EpisodeKind[]): OpenEpisode[];
  /** Opens an episode with what its start says; false when its key is open already or it was seen. */
  fire(e: EpisodeStart, at: number, words: Announcement): boolean;
  /** Resolves an open episode with what its end says; `words` null: closed quietly (no longer watched, alert off). */
  resolve(e: OpenEpisode, at: number, words: Announcement | null): boolean;
}

export function alertTimelinePart(d: { store: Store; logger: Logger; settings: () => Settings; emit: (e: MonitorEvent) => void }): AlertTimeline {
  const episodes = d.store.relayerEpisodes;

  /** One line in words (warn for a fire), the identities beside it for whoever searches the log. */
  function said(entry: AlertEntry, key: string, startedAt: number): void {
    const own = ownChainsOf(d.settings().dataSource);
    const chains = {
      ...(entry.sourceChain ? { sourceChain: entry.sourceChain, sourceChainName: chainLabel(entry.sourceChain, own) } : {}),
      ...(entry.destinationChain ? { destinationChain: entry.destinationChain, destinationChainName: chainLabel(entry.destinationChain, own) } : {}),
    };
    const fields = {
      alert: entry.episodeKind,
      phase: entry.phase,
      severity: entry.severity,
      key,
      episodeId: entry.episodeId,
      subject: entry.subject,
      network: entry.network,
      ...chains,
      ...(entry.relayer ? { relayer: entry.relayer } : {}),
      startedAt,
    };
    d.logger[entry.phase === 'fire' ? 'warn' : 'info'](alertSentence(entry), fields);
    d.emit({ type: 'alerts', alerts: [entry] });
  }

  return {
    name: 'alert-timeline',
    open: (kinds) => episodes.open(kinds),
    openElsewhere: (kinds) => episodes.openElsewhere(kinds),
    fire(e, at, words) {
      const entry = episodes.fire(e, at, words, d.settings().notifications.enabled);
      if (entry) said(entry, e.key, e.startedAt);
      return entry !== null;
    },
    resolve(e, at, words) {
      const entry = episodes.resolve(e.id, at, words, d.settings().notifications.enabled);
      if (entry) said(entry, e.key, e.startedAt);
      return entry !== null;
    },
  };
}
