/** Settings → Test key: proves the key is honoured by the RateLimit headers with and without it, and blames the header name when it is ignored. */
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { MonitorCore } from '../../src/core/monitor-core';
import type { ApiKeyTestResult } from '../../src/shared/contract';
import { serviceAndCore } from './core-on-service';

const KEY = `key-check-${randomBytes(8).toString('hex')}`;
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** The service knows KEY, and the core reads it as a custom base URL (the key is sent only there). */
async function start() {
  const { svc, core } = await serviceAndCore({ rate: 0, preload: 20, apiKeys: [KEY], rateLimitPerMinute: { keyed: 600, anonymous: 120 } }, cleanups);
  await core.invoke('updateSettings', { dataSource: { kind: 'custom', baseUrl: svc.url } });
  return { svc, core };
}

const test = async (c: MonitorCore): Promise<ApiKeyTestResult> => {
  const r = await c.invoke('testApiKey', { key: KEY });
  if (!r.ok) throw new Error(r.error.message);
  return r.value as ApiKeyTestResult;
};

describe('Test key', () => {
  it('says the key works only when the limit with it is higher than without it', async () => {
    const { core: c, svc } = await start();
    expect(await test(c)).toEqual({
      ok: true,
      message: `The key works with ${new URL(svc.url).host}: its limit is 12,000 compute units with the key and 2,400 without.`,
    });
  });

  it('when the service ignores the key (another header name), says the header is the likely cause', async () => {
    const { core: c } = await start();
    await c.invoke('updateSettings', { apiKeyHeader: 'x-api-key' });
    const r = await test(c);
    expect(r.ok).toBe(false);
    expect(r.message).toContain('same limit (2,400 compute units) with and without the key: it ignored the key');
    expect(r.message).toContain('The header name is the likely cause: the key was sent in x-api-key');
    expect(r.message).not.toContain(KEY);
  });
});
