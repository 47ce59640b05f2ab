/**
 * A real store (SQLite in a temporary folder) and the real alert timeline over it, with a record of what
 * each alert asked of the timeline: the episodes it fired and resolved, and with which words.
 */
import { afterEach, beforeEach } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/shared/contract';
import { createLogger } from '../../../src/core/log/logger';
import { alertTimelinePart } from '../../../src/core/parts/alert-timeline';
import type { EpisodeDoor } from '../../../src/core/relayers/episodes';
import { openStore, type Store } from '../../../src/core/store';
import { tempDir } from '../helpers';

export interface Said {
  phase: 'fire' | 'resolve';
  key: string;
  /** The announcement's title; null: closed quietly. */
  title: string | null;
  body: string | null;
  startedAt: number;
}

export interface EpisodeRig {
  store: Store;
  door: EpisodeDoor;
  said: Said[];
}

/** A fresh rig for each test of the calling suite, closed and deleted after it. */
export function useEpisodeRig(): () => EpisodeRig {
  let rig: EpisodeRig | undefined;
  let tmp: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    tmp = tempDir('tw-episodes-');
    const store = openStore(tmp.dir);
    const timeline = alertTimelinePart({ store, logger: createLogger(), settings: () => DEFAULT_SETTINGS, emit: () => {} });
    const said: Said[] = [];
    const door: EpisodeDoor = {
      open: (kinds) => timeline.open(kinds),
      fire(e, at, words) {
        const ok = timeline.fire(e, at, words);
        if (ok) said.push({ phase: 'fire', key: e.key, title: words.title, body: words.body, startedAt: e.startedAt });
        return ok;
      },
      resolve(e, at, words) {
        const ok = timeline.resolve(e, at, words);
        if (ok) said.push({ phase: 'resolve', key: e.key, title: words?.title ?? null, body: words?.body ?? null, startedAt: e.startedAt });
        return ok;
      },
    };
    rig = { store, door, said };
  });
  afterEach(() => {
    rig?.store.close();
    tmp?.cleanup();
  });
  return () => rig!;
}
