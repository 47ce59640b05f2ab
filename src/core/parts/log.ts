import { join } from 'node:path';
import type { Clock } from '../../shared/clock';
import { createLogger, type CoreLogger, type Logger } from '../log/logger';
import type { Redactor } from '../secrets/redact';
import { dataFolderFault } from '../store/open-fault';
import type { Part } from './part';

interface LogPart extends Part {
  readonly logger: CoreLogger;
}

/**
 * The core's one logger: `<dataDir>/logs/core.log`, forwarded to the shell's logger, every registered
 * secret cut out by `redactor`. Opened when made (a folder it cannot write is said so the user can act);
 * stopped, it writes out what is buffered and closes the file.
 */
export function logPart(dataDir: string, forward: Logger | undefined, clock: Clock, redactor: Redactor): LogPart {
  let logger: CoreLogger;
  try {
    logger = createLogger({ file: join(dataDir, 'logs', 'core.log'), ...(forward ? { forward } : {}), now: () => clock.now(), redactor });
  } catch (e) {
    throw dataFolderFault(dataDir, e);
  }
  return { name: 'log', logger, stop: () => logger.close() };
}
