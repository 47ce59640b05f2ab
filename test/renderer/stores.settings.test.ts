// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { useSettingsStore } from '../../src/renderer/src/stores/settings';
import { setupRealRenderer, until } from './real-core';

describe('settings store (real core)', () => {
  it('loads, saves a valid patch, and follows settings-changed events', async () => {
    const { api } = await setupRealRenderer();
    const s = useSettingsStore();
    await s.load();
    expect(s.settings?.pollIntervalSeconds).toBe(30);
    expect(await s.save({ pollIntervalSeconds: 60, dataSource: { kind: 'avalanche' }, notifications: { stuck: false } })).toBe(true);
    expect(s.settings).toMatchObject({ pollIntervalSeconds: 60, dataSource: { kind: 'avalanche' }, notifications: { enabled: true, stuck: false } });
    expect((await api.getSettings()).pollIntervalSeconds).toBe(60);
    // Changed elsewhere (another window): the core's event brings it.
    await api.updateSettings({ theme: 'dark', dataSource: { kind: 'local' } });
    await until(() => expect(s.settings?.theme).toBe('dark'));
  });

  it('marks an invalid value at its field and sends nothing', async () => {
    const { transport } = await setupRealRenderer();
    const s = useSettingsStore();
    expect(await s.save({ pollIntervalSeconds: 2 })).toBe(false);
    expect(s.fieldErrors.pollIntervalSeconds).toBe('Poll interval must be at least 5 seconds.');
    expect(await s.save({ dataSource: { kind: 'custom', baseUrl: 'ftp://x' } })).toBe(false);
    expect(s.fieldErrors['dataSource.baseUrl']).toMatch(/http/);
    expect(transport.calls).toEqual([]);
  });

  it('sets, tests and removes the API key against a source that requires one; the key itself never comes back', async () => {
    const { service, transport } = await setupRealRenderer({ apiKeys: ['good-key-123'], requireKey: true });
    const s = useSettingsStore();
    await s.load();
    expect(await s.save({ dataSource: { kind: 'custom', baseUrl: service.url } })).toBe(true);
    expect(s.apiKey).toMatchObject({ hasApiKey: false, storage: 'none' });
    expect(await s.setApiKey('short')).toBe(false);
    expect(s.keyError).toMatch(/too short/);
    expect(transport.callsOf('setApiKey')).toEqual([]);
    expect(await s.setApiKey('good-key-123')).toBe(true);
    expect(s.apiKey?.hasApiKey).toBe(true);
    // Where the OS keychain is missing (a bare CI box), the key lives for the session and the status says what to install.
    if (s.apiKey?.storage === 'memory') expect(s.apiKey.keychainError).toMatch(/gnome-keyring|Secret Service/);
    else expect(s.apiKey?.storage).toBe('keychain');
    expect(JSON.stringify(s.$state)).not.toContain('good-key-123');
    await s.testApiKey();
    expect(s.testResult).toMatchObject({ ok: true });
    await s.testApiKey('bad-key-12345');
    expect(s.testResult).toMatchObject({ ok: false, error: { kind: 'unauthorized' } });
    expect(await s.deleteApiKey()).toBe(true);
    expect(s.apiKey?.hasApiKey).toBe(false);
  });
});
