import type { Settings } from '../../shared/contract';
import type { Logger } from '../log/logger';
import { LocalDataApiLauncher } from '../service-launcher/launcher';
import type { LocalDataApiSpec } from '../monitor-core';
import type { Part } from './part';

interface LocalServicePart extends Part {
  /** Where the local service answers now (it may move after a restart), or null while it is not up. */
  url(): string | null;
}

/**
 * The local teleporter service as the core sees it: a URL it was given, or a child process it starts
 * (only when the data source is `local`; a failed start is logged and polling reports it offline) and
 * kills on close.
 */
export function localServicePart(spec: LocalDataApiSpec | undefined, dataDir: string, logger: Logger, settings: () => Settings): LocalServicePart {
  const launcher = spec?.kind === 'spawn' ? new LocalDataApiLauncher(spec, dataDir, logger) : null;
  return {
    name: 'local-service',
    url: () => (spec?.kind === 'url' ? spec.url : (launcher?.url() ?? null)),
    async start() {
      if (!launcher || settings().dataSource.kind !== 'local') return;
      try {
        await launcher.start();
      } catch (e) {
        logger.error('local service did not start', { error: e });
      }
    },
    stop: () => launcher?.close(),
  };
}
