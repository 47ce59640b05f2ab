/** Fault profiles: each kind at its stated rate, deterministic per seed, switchable at run time. */
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/shared/clock';
import { FAULT_PRESETS, parseFaultSpec } from '../../src/local-service/index';
import { get, serve } from './helpers';
import { waitFor } from '../support/wait-for';

const LIST = '/v1/teleporter/messages?pageSize=2';

type Outcome = string;
async function outcome(url: string): Promise<Outcome> {
  try {
    const r = await get(url);
    if (r.status !== 200) return String(r.status);
    return r.json && typeof r.json === 'object' && Array.isArray((r.json as { messages?: unknown }).messages) ? 'ok' : 'malformed';
  } catch {
    return 'reset';
  }
}

async function tally(url: string, n: number): Promise<{ seq: Outcome[]; counts: Record<string, number> }> {
  const seq: Outcome[] = [];
  for (let i = 0; i < n; i++) seq.push(await outcome(url));
  const counts: Record<string, number> = {};
  for (const o of seq) counts[o] = (counts[o] ?? 0) + 1;
  return { seq, counts };
}

describe('fault specs', () => {
  it('parses presets and explicit specs, later items overriding earlier ones', () => {
    expect(parseFaultSpec('flaky')).toEqual({
      ok: true,
      value: { '5xx': 0.2, '429': 0, slow: 0, malformed: 0, reset: 0.05, burst: 2, slowMs: 1500, retryAfter: 1, timeout: 0, timeoutMs: 20_000 },
    });
    expect(parseFaultSpec('flaky,burst:1,429:0.1')).toMatchObject({ ok: true, value: { '5xx': 0.2, '429': 0.1, burst: 1 } });
    expect(parseFaultSpec('5xx:0.2,429:0.1,slow:0.1,malformed:0.05,reset:0.05')).toMatchObject({ ok: true });
    for (const name of Object.keys(FAULT_PRESETS)) expect(parseFaultSpec(name).ok).toBe(true);
  });

  it.each([
    ['nonsense', 'Fault item "nonsense" is neither a preset (none, flaky, ratelimited, slow, malformed, chaos) nor key:value.'],
    ['5xx:2', 'Fault rate 5xx must be a probability between 0 and 1 (got "2").'],
    ['burst:0', 'Fault setting burst must be a whole number from 1 to 100 (got "0").'],
    [
      'teapot:0.1',
      'Unknown fault "teapot": use 5xx, 429, slow, malformed, reset, timeout, burst, slowMs, retryAfter, timeoutMs or a preset (none, flaky, ratelimited, slow, malformed, chaos).',
    ],
    ['5xx:0.6,reset:0.5', 'Fault rates add up to 1.100; their sum must not exceed 1.'],
  ])('rejects %s with a clear message', (spec, message) => {
    expect(parseFaultSpec(spec)).toEqual({ ok: false, error: message });
  });
});

describe('fault injection over HTTP', () => {
  it('5xx: JSON error bodies at the stated rate, in bursts', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 20, faults: '5xx:0.2,burst:3' });
    const { seq, counts } = await tally(s.url + LIST, 300);
    const errors = (counts['500'] ?? 0) + (counts['502'] ?? 0) + (counts['503'] ?? 0);
    // Each hit starts a burst of 3: roughly 0.2 / (1 + 0.2 * 2) = 43% of requests fail.
    expect(errors / 300).toBeGreaterThan(0.3);
    expect(errors / 300).toBeLessThan(0.56);
    expect(counts.ok! + errors).toBe(300);
    // Bursts: errors come in runs of the same status.
    const runs = seq.join(',').match(/(50[023])(,\1){2}/g) ?? [];
    expect(runs.length).toBeGreaterThan(10);
    s.setFaults('5xx:1');
    const r = await get(s.url + LIST);
    expect([500, 502, 503]).toContain(r.status);
    expect(r.json).toMatchObject({ statusCode: r.status });
    expect(typeof (r.json as { message: unknown }).message).toBe('string');
    expect(r.headers.get('content-type')).toBe('application/json; charset=utf-8');
  });

  it('429: with Retry-After and the RateLimit headers', async () => {
    const s = await serve({ clock: new ManualClock(), faults: 'ratelimited,retryAfter:7' });
    const { counts } = await tally(s.url + LIST, 200);
    expect(counts['429']! / 200).toBeGreaterThan(0.2);
    expect(counts['429']! / 200).toBeLessThan(0.4);
    s.setFaults('429:1,retryAfter:7');
    const r = await get(s.url + LIST);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.headers.get('ratelimit-remaining')).toBe('0');
    expect(r.json).toEqual({ message: 'Too many requests: rate limit exceeded; retry after 7 s.', statusCode: 429, error: 'Too Many Requests' });
  });

  it('slow: delays the real answer by slowMs', async () => {
    // A long delay, so the unfaulted answer below is far faster even on a loaded machine.
    const s = await serve({ clock: new ManualClock(), preload: 10, faults: 'slow:1,slowMs:1500' });
    const t0 = performance.now();
    const r = await get(s.url + LIST);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(1490);
    expect(r.status).toBe(200);
    expect((r.json as { messages: unknown[] }).messages).toHaveLength(2);
    s.setFaults(null);
    const t1 = performance.now();
    await get(s.url + LIST);
    expect(performance.now() - t1).toBeLessThan(1000);
  });

  it('malformed: status 200 with truncated JSON, HTML, or the wrong shape', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 10, faults: 'malformed:1' });
    const bodies = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const r = await get(s.url + LIST);
      expect(r.status).toBe(200);
      const shape = r.json === undefined ? (r.text.startsWith('<') ? 'html' : 'truncated') : 'wrong-shape';
      if (shape === 'wrong-shape') expect(Array.isArray((r.json as { messages: unknown }).messages)).toBe(false);
      bodies.add(shape);
    }
    expect(bodies).toEqual(new Set(['html', 'truncated', 'wrong-shape']));
  });

  it('reset: the connection is destroyed without an answer', async () => {
    const s = await serve({ clock: new ManualClock(), faults: 'reset:1' });
    await expect(fetch(s.url + LIST)).rejects.toThrow('fetch failed');
    s.setFaults('reset:0.3');
    const { counts } = await tally(s.url + LIST, 100);
    expect(counts.reset! / 100).toBeGreaterThan(0.15);
    expect(counts.reset! / 100).toBeLessThan(0.45);
  });

  it('timeout: the request is never answered; the connection is closed after timeoutMs', async () => {
    const s = await serve({ clock: new ManualClock(), preload: 10, faults: 'timeout:1,timeoutMs:400' });
    // A client with a shorter timeout of its own gives up first, as the app's does (15 s against 20 s).
    await expect(fetch(s.url + LIST, { signal: AbortSignal.timeout(100) })).rejects.toThrow(/aborted|timeout/i);
    const t0 = performance.now();
    await expect(fetch(s.url + LIST)).rejects.toThrow('fetch failed');
    expect(performance.now() - t0).toBeGreaterThanOrEqual(390);
    s.setFaults('timeout:0.3,timeoutMs:10');
    const { counts } = await tally(s.url + LIST, 100);
    expect(counts.reset! / 100).toBeGreaterThan(0.15);
    expect(counts.reset! / 100).toBeLessThan(0.45);
    expect(counts.ok! + counts.reset!).toBe(100);
    // A held request does not keep the service from closing.
    s.setFaults('timeout:1,timeoutMs:600000');
    const before = s.requestCount();
    const held = fetch(s.url + LIST).catch(() => 'closed');
    await waitFor(() => s.requestCount() > before, 10_000, 'the held request to arrive');
    await s.close();
    expect(await held).toBe('closed');
  });

  it('chaos mixes every kind; the same seed gives the same sequence', async () => {
    const seqOf = async (seed: number) => {
      const s = await serve({ clock: new ManualClock(), preload: 10, seed, faults: 'chaos,slowMs:20' });
      return (await tally(s.url + LIST, 120)).seq;
    };
    const a = await seqOf(4);
    const b = await seqOf(4);
    const c = await seqOf(5);
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    for (const kind of ['ok', '429', 'malformed', 'reset']) expect(a).toContain(kind);
    expect(a.some((o) => o.startsWith('50'))).toBe(true);
    expect(a.filter((o) => o !== 'ok').length).toBeGreaterThan(20);
  });

  it('never injects faults into the local info route, and refuses a bad spec at run time', async () => {
    const s = await serve({ clock: new ManualClock(), faults: '5xx:1' });
    expect((await get(s.url + '/_local/info')).status).toBe(200);
    expect(() => s.setFaults('5xx:7')).toThrow('Fault rate 5xx must be a probability between 0 and 1 (got "7").');
  });
});
