import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KeyStore, KEYCHAIN_ACCOUNT } from '../../src/core/secrets/key-store';

const hasSession = !!process.env.DBUS_SESSION_BUS_ADDRESS || process.env.TW_TEST_SESSION === 'keyring';
if (!hasSession) console.log('keychain tests skipped: no D-Bus session (run through `npm test`, which starts dbus-run-session with gnome-keyring).');

/** What `secret-tool search` finds for a service (it prints attributes on stderr, the secret on stdout). */
const secretTool = (service: string): string => {
  const r = spawnSync('secret-tool', ['search', '--all', 'service', service], { encoding: 'utf8' });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
};

describe.skipIf(!hasSession)('API key in the real Secret Service', () => {
  it('sets, reads back in a new instance, replaces and deletes the key', () => {
    const service = `tw-test-${randomBytes(4).toString('hex')}`;
    const a = new KeyStore(service);
    expect(a.status()).toEqual({ hasApiKey: false, storage: 'none' });
    expect(a.set('first-key-123456')).toEqual({ hasApiKey: true, storage: 'keychain' });
    // Really in the Secret Service, under our service and account.
    const found = secretTool(service);
    expect(found).toContain(`attribute.service = ${service}`);
    expect(found).toContain(`attribute.username = ${KEYCHAIN_ACCOUNT}`);
    const b = new KeyStore(service);
    expect(b.get()).toBe('first-key-123456');
    b.set('second-key-654321');
    expect(new KeyStore(service).get()).toBe('second-key-654321');
    expect(b.delete()).toEqual({ hasApiKey: false, storage: 'none' });
    expect(new KeyStore(service).get()).toBeNull();
    expect(secretTool(service)).not.toContain(`attribute.service = ${service}`);
  });
});

describe('API key without a keychain', () => {
  it('keeps the key in memory for the session and says what to install', () => {
    // A child process with no reachable Secret Service, like a machine without one.
    const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, 'fixtures', 'no-keychain.ts'), `tw-none-${randomBytes(4).toString('hex')}`], {
      encoding: 'utf8',
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/tw-no-bus' },
    });
    const out = JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as {
      set: { hasApiKey: boolean; storage: string; keychainError?: string };
      got: string;
      del: { hasApiKey: boolean };
    };
    expect(out.set.hasApiKey).toBe(true);
    expect(out.set.storage).toBe('memory');
    expect(out.set.keychainError).toMatch(/gnome-keyring/);
    expect(out.got).toBe('memory-only-key-1');
    expect(out.del.hasApiKey).toBe(false);
  });
});
