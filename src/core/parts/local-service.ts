import type { Settings } from '../../shared/contract';
import type { Logger } from '../log/logger';
import { LocalServiceLauncher } from '../local-service/launcher';
import type { LocalServiceSpec } from '../monitor-core';
import type { EventHub } from './events';
import type { Part } from './part';
import { settingsFollower } from './settings-follower';

/** A local service that did not start is started again this long after (real time: a real child process). */
const RETRY_START_MS = 30_000;

interface LocalServicePart extends Part {
  /** Where the local service answers now (it may move after a restart), or null while it is not up. */
  url(): string | null;
  /** Called each time the service starts listening (a poll then need not wait for the next interval). */
  onReady(listener: () => void): void;
}

/**
 * The local service as the core sees it: a URL it was given, or a child process it runs
 * while the data source is `local` and only then. The part follows the settings: a switch to the demo
 * starts it, a switch away stops it (its simulated world does not go on writing a database nobody
 * reads), in every direction and without a restart. A failed start is logged; the poll status and the
 * source's health then say the demo cannot be read.
 */
export function localServicePart(
  spec: LocalServiceSpec | undefined,
  dataDir: string,
  logger: Logger,
  settings: () => Settings,
  events: EventHub,
): LocalServicePart {
  const spawnSpec = spec?.kind === 'spawn' ? spec : null;
  const ready = new Set<() => void>();
  let launcher: LocalServiceLauncher | null = null;
  let retry: NodeJS.Timeout | null = null;
  const follower = settingsFollower(events, async (running) => {
    if (retry) clearTimeout(retry);
    retry = null;
    if (!spawnSpec) return;
    if (running && settings().dataSource.kind === 'local') {
      if (launcher) return; // running, or restarting itself after a crash
      launcher = new LocalServiceLauncher(spawnSpec, dataDir, logger, () => ready.forEach((f) => f()));
      try {
        await launcher.start();
      } catch (e) {
        // Not started (it could not be spawned, or exited before listening): tried again a while later,
        // as long as the demo is still the source (the status says meanwhile that it cannot be read).
        logger.error(`local service did not start; trying again in ${RETRY_START_MS / 1000} s`, { error: e });
        // Closed so it does not restart itself too (not awaited: a child that never spawned may never exit).
        void launcher.close();
        launcher = null;
        retry = setTimeout(() => void follower.again(), RETRY_START_MS);
        retry.unref();
      }
    } else if (launcher) {
      const l = launcher;
      launcher = null;
      await l.close();
      logger.info('local service stopped: the embedded demo is not the data source');
    }
  });

  return {
    name: 'local-service',
    url: () => (spec?.kind === 'url' ? spec.url : (launcher?.url() ?? null)),
    onReady: (listener) => void ready.add(listener),
    start: () => follower.start(),
    stop: () => follower.stop(),
  };
}
