// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { setupRenderer } from './setup';

describe('settings store', () => {
  it('loads, saves a valid patch, and follows settings-changed events', async () => {
    const { fake } = setupRenderer();
    const s = useSettingsStore();
    await s.load();
    expect(s.settings?.pollIntervalSeconds).toBe(30);
    expect(await s.save({ pollIntervalSeconds: 60, dataSource: { kind: 'avalanche' }, notifications: { stuck: false } })).toBe(true);
    expect(s.settings).toMatchObject({ pollIntervalSeconds: 60, dataSource: { kind: 'avalanche' }, notifications: { enabled: true, stuck: false } });
    expect(fake.settings.pollIntervalSeconds).toBe(60);
    s.handleEvent({ type: 'settings-changed', settings: { ...fake.settings, theme: 'dark' } });
    expect(s.settings?.theme).toBe('dark');
  });

  it('marks an invalid value at its field and sends nothing', async () => {
    const { fake } = setupRenderer();
    const s = useSettingsStore();
    expect(await s.save({ pollIntervalSeconds: 2 })).toBe(false);
    expect(s.fieldErrors.pollIntervalSeconds).toBe('Poll interval must be at least 5 seconds.');
    expect(await s.save({ dataSource: { kind: 'custom', baseUrl: 'ftp://x' } })).toBe(false);
    expect(s.fieldErrors['dataSource.baseUrl']).toMatch(/http/);
    expect(fake.calls).toEqual([]);
  });

  it('sets, tests and removes the API key; the key itself never comes back', async () => {
    const { fake } = setupRenderer();
    const s = useSettingsStore();
    await s.load();
    expect(s.apiKey).toEqual({ hasApiKey: false, storage: 'none' });
    expect(await s.setApiKey('short')).toBe(false);
    expect(s.keyError).toMatch(/too short/);
    expect(fake.callsOf('setApiKey')).toEqual([]);
    expect(await s.setApiKey('good-key-123')).toBe(true);
    expect(s.apiKey).toEqual({ hasApiKey: true, storage: 'keychain' });
    expect(JSON.stringify(s.$state)).not.toContain('good-key-123');
    await s.testApiKey();
    expect(s.testResult).toMatchObject({ ok: true });
    await s.testApiKey('bad-key-12345');
    expect(s.testResult).toMatchObject({ ok: false, message: expect.stringContaining('401') });
    expect(await s.deleteApiKey()).toBe(true);
    expect(s.apiKey?.hasApiKey).toBe(false);
  });

  it('reports memory-only storage with the keychain advice', async () => {
    const { fake } = setupRenderer();
    fake.keychainAvailable = false;
    const s = useSettingsStore();
    await s.setApiKey('good-key-123');
    expect(s.apiKey).toMatchObject({ storage: 'memory', keychainError: expect.stringContaining('gnome-keyring') });
  });
});
