import { describe, expect, it } from 'vitest';
import { resolveText } from '../../src/core/parts/relayer-alert-text';
import type { OpenEpisode } from '../../src/core/store/relayer-episodes';

const MIN = 60_000;
const now = 100 * MIN;
const silent: OpenEpisode = {
  id: 1,
  key: 'relayer-silent:mainnet:0xabc',
  kind: 'relayer_silent',
  network: 'mainnet',
  subject: 'ours',
  sourceChain: '',
  destinationChain: '',
  startedAt: now - 22 * MIN,
};

// A relayer's silence ends one of two ways; the words must say which (issue 43: "delivers again, or nothing waits" left it to guess).
describe('a cleared relayer-silent alert says how it cleared', () => {
  it('a delivery: "delivering again", with when it delivered', () => {
    const a = resolveText(silent, now, { delivered: true, at: now - 3 * MIN });
    expect(a.title).toBe('Relayer delivering again: ours');
    expect(a.body).toBe('ours delivered a message 3 min ago (the silence lasted about 22 min).');
  });

  it('nothing waits any more: not "delivering again", and says it has still not delivered', () => {
    const a = resolveText(silent, now, { delivered: false, pendingMinutes: 10 });
    expect(a.title).toBe('Relayer silent cleared: ours');
    expect(a.body).toContain('has still not delivered');
    expect(a.body).toContain('no message on its routes has been waiting 10 min or more');
    expect(a.body).not.toMatch(/delivering again|delivers again/);
  });

  it("a route backlog's clearing is unchanged", () => {
    const a = resolveText({ ...silent, kind: 'route_backlog', subject: 'C-Chain → Beam' }, now, null);
    expect(a.title).toBe('Route backlog cleared: C-Chain → Beam');
  });
});
