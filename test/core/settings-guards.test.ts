/**
 * Settings a person types are refused with a field error when HTTP would misuse them: an API key
 * header HTTP reserves (the key would go out as Host, or be dropped, or undici would throw), a name
 * with characters a header cannot have, a base URL longer than any real one.
 */
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';
import type { MonitorCore } from '../../src/core/monitor-core';
import { MAX_URL_CHARS } from '../../src/shared/schemas';
import { tempDir } from './helpers';

describe('settings guards', () => {
  let tmp: ReturnType<typeof tempDir>;
  let core: MonitorCore;
  beforeEach(async () => {
    tmp = tempDir();
    core = await createMonitorCore({
      dataDir: tmp.dir,
      shell: 'web',
      version: 'x',
      localService: { kind: 'url', url: 'http://127.0.0.1:9' },
      autoPoll: false,
      keychainService: `tw-test-${randomBytes(4).toString('hex')}`,
    });
  });
  afterEach(async () => {
    await core.close();
    tmp.cleanup();
  });

  it.each([
    'host',
    'Host',
    'connection',
    'content-length',
    'Transfer-Encoding',
    'upgrade',
    'te',
    'trailer',
    'keep-alive',
    'expect',
    'cookie',
    'origin',
    'proxy-authorization',
    'Proxy-Connection',
    'sec-fetch-mode',
  ])('refuses the reserved header %s as the API key header', async (name) => {
    const r = await core.invoke('updateSettings', { apiKeyHeader: name });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'apiKeyHeader', message: expect.stringMatching(/HTTP reserves/) } });
  });

  it.each(['x key', 'x:key', 'x\r\nhost', 'x_key', 'ключ', '', 'x'.repeat(65)])('refuses the header name %j with a field error', async (name) => {
    const r = await core.invoke('updateSettings', { apiKeyHeader: name });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input', field: 'apiKeyHeader' } });
  });

  it('accepts ordinary key headers', async () => {
    for (const name of ['x-glacier-api-key', 'x-service-api-key', 'authorization', 'X-Api-Key']) {
      const r = await core.invoke('updateSettings', { apiKeyHeader: name });
      expect(r.ok, name).toBe(true);
    }
  });

  it.each([
    ['gold', 'plan', /plan must be one of auto, unauthenticated, free, base, growth, pro, or \{ cuPerMinute, cuPerDay \}/],
    [{ cuPerMinute: 10, cuPerDay: 1000 }, 'plan.cuPerMinute', /Plan CU per minute must be at least 20 CU/],
    [{ cuPerMinute: 8000, cuPerDay: 7999 }, 'plan.cuPerDay', /Plan CU per day must be at least its CU per minute/],
    [{ cuPerMinute: 8000.5, cuPerDay: 2e6 }, 'plan.cuPerMinute', /whole number/],
    [{ cuPerMinute: 8000, cuPerDay: 2e6, extra: 1 }, 'plan', /./],
  ])('refuses the plan %j with a field error at %s, and keeps the plan it had', async (plan, field, message) => {
    expect((await core.invoke('updateSettings', { plan: 'base' })).ok).toBe(true);
    const r = await core.invoke('updateSettings', { plan });
    expect(r).toMatchObject({ ok: false, error: { kind: 'invalid_input', field, message: expect.stringMatching(message) } });
    expect(await core.invoke('getSettings', undefined)).toMatchObject({ ok: true, value: { plan: 'base' } });
  });

  it('accepts every named plan and custom figures', async () => {
    for (const plan of ['auto', 'unauthenticated', 'free', 'base', 'growth', 'pro', { cuPerMinute: 20, cuPerDay: 20 }]) {
      expect((await core.invoke('updateSettings', { plan })).ok, JSON.stringify(plan)).toBe(true);
    }
  });

  it('refuses a base URL over the length limit with a field error', async () => {
    const long = `http://127.0.0.1:9/${'a'.repeat(MAX_URL_CHARS)}`;
    const r = await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: long } });
    expect(r).toMatchObject({
      ok: false,
      error: { kind: 'invalid_input', field: 'dataSource.baseUrl', message: `Base URL must be at most ${MAX_URL_CHARS} characters.` },
    });
    const ok = await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: 'http://127.0.0.1:9/api' } });
    expect(ok.ok).toBe(true);
  });
});
