import { Entry } from '@napi-rs/keyring';
import type { ApiKeyStatus } from '../../shared/contract';

export const KEYCHAIN_ACCOUNT = 'api-key';

export const KEYCHAIN_HELP =
  'The OS keychain is not available, so the API key is kept in memory for this session only. ' +
  'On Linux install and start a Secret Service (for example `apt-get install gnome-keyring libsecret-1-0` ' +
  'and log in to a desktop session, or run gnome-keyring-daemon), then set the key again.';

/**
 * The API key in the OS keychain (Secret Service on Linux, pinned so it never silently falls back to
 * the in-memory kernel keyring). When the keychain fails, the key lives in memory for this session
 * and the status explains what to install. The key never leaves this class except to the client.
 */
export class KeyStore {
  private memoryKey: string | null = null;
  private cached: string | null | undefined;
  private keychainError: string | undefined;

  constructor(private readonly service: string) {}

  private entry(): Entry {
    return new Entry(this.service, KEYCHAIN_ACCOUNT, { linux: { store: 'secret-service' } });
  }

  private fail(e: unknown): void {
    const detail = e instanceof Error ? e.message : String(e);
    this.keychainError = `${KEYCHAIN_HELP} (${detail})`;
  }

  /** The key for requests, or null. Reads the keychain once, then from memory. */
  get(): string | null {
    if (this.memoryKey !== null) return this.memoryKey;
    if (this.cached !== undefined) return this.cached;
    try {
      this.cached = this.entry().getPassword() ?? null;
      this.keychainError = undefined;
    } catch (e) {
      this.fail(e);
      this.cached = null;
    }
    return this.cached;
  }

  /** A key for this process only (headless: from an environment variable or a file), never written to the keychain. */
  useSessionKey(key: string): void {
    this.memoryKey = key;
  }

  set(key: string): ApiKeyStatus {
    try {
      this.entry().setPassword(key);
      this.cached = key;
      this.memoryKey = null;
      this.keychainError = undefined;
    } catch (e) {
      this.fail(e);
      this.memoryKey = key;
    }
    return this.status();
  }

  delete(): ApiKeyStatus {
    this.memoryKey = null;
    this.cached = null;
    try {
      this.entry().deletePassword();
      this.keychainError = undefined;
    } catch (e) {
      this.fail(e);
    }
    return this.status();
  }

  status(): ApiKeyStatus {
    const key = this.get();
    const storage: ApiKeyStatus['storage'] = this.memoryKey !== null ? 'memory' : key ? 'keychain' : 'none';
    return { hasApiKey: key !== null && key !== '', storage, ...(this.keychainError ? { keychainError: this.keychainError } : {}) };
  }
}
