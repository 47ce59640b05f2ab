import type { CoreLogger } from '../log/logger';
import { KeyStore } from '../secrets/key-store';
import type { Part } from './part';

interface KeysPart extends Part {
  readonly keys: KeyStore;
}

/**
 * The API key: in the OS keychain under `service`, or `sessionKey` for this process only. The key
 * there at start is registered with the log as a secret before anything can say it. Nothing to stop.
 */
export function keysPart(service: string, sessionKey: string | undefined, logger: CoreLogger): KeysPart {
  const keys = new KeyStore(service);
  if (sessionKey) keys.useSessionKey(sessionKey);
  const startupKey = keys.get();
  if (startupKey) logger.addSecret(startupKey);
  return { name: 'keys', keys };
}
