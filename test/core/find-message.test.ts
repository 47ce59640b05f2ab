/** findMessage through the core facade against the real local service: any message by ID, cached or not. */
import { afterEach, describe, expect, it } from 'vitest';
import type { FoundMessage } from '../../src/shared/contract';
import { serviceAndCore } from './core-on-service';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const start = () => serviceAndCore({ rate: 0, preload: 300, seed: 4 }, cleanups);

describe('findMessage', () => {
  it('opens a message the monitor never cached, on another network than the settings, through the single-message operation', async () => {
    const { core: c, svc } = await start();
    const fuji = (await (await fetch(`${svc.url}/v1/teleporter/messages?network=fuji&pageSize=5`)).json()) as {
      messages: { messageId: string; status: string }[];
    };
    const target = fuji.messages[4]!;
    const before = svc.requestCount();
    const r = await c.invoke('findMessage', { messageId: `0x${target.messageId.toUpperCase()}` });
    expect(r.ok).toBe(true);
    const found = (r as { ok: true; value: FoundMessage }).value;
    expect(found).toMatchObject({ source: 'api', cached: null, message: { messageId: target.messageId, status: target.status } });
    expect(svc.requestCount() - before).toBe(1);
    // The cache still knows nothing about it: the lookup did not depend on it.
    const cached = await c.invoke('getMessage', { messageId: target.messageId });
    expect(cached).toEqual({ ok: true, value: null });
  });

  it('says "no message" on the messageId field for a well-formed unknown ID, and refuses a malformed one before any request', async () => {
    const { core: c, svc } = await start();
    const unknown = '9f'.repeat(32);
    const r = await c.invoke('findMessage', { messageId: unknown });
    expect(r).toEqual({
      ok: false,
      error: {
        kind: 'not_found',
        field: 'messageId',
        message: `No message with ID ${unknown}: ${new URL(svc.url).host} does not know it on any network, and it is not in the local cache.`,
      },
    });
    const before = svc.requestCount();
    const bad = await c.invoke('findMessage', { messageId: 'not-an-id' });
    expect(bad).toEqual({
      ok: false,
      error: {
        kind: 'invalid_input',
        field: 'messageId',
        message: 'Message ID must be 64 hex digits, with or without 0x (it has characters other than 0-9 and a-f).',
      },
    });
    expect(svc.requestCount()).toBe(before);
  });
});
