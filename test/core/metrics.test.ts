import { describe, expect, it } from 'vitest';
import { CoreMetrics, MAX_ROUTES } from '../../src/core/metrics/core-metrics';
import { LabelCap } from '../../src/core/metrics/label-cap';
import { registerLiveGauges, type LiveReaders } from '../../src/core/metrics/live-gauges';
import type { Transition, TransitionsEvent } from '../../src/shared/contract';

const queries = (routes: number) => ({
  trackedByRoute: () => Array.from({ length: routes }, (_, i) => ({ key: `src${i}|dst${i}`, status: 'pending', n: 1 })),
  trackedByWatchLabel: () => [{ key: '', status: 'pending', n: 2 }],
  stuckByRoute: () => [],
  trackingEnded: () => [],
  deliverySeconds: () => 42,
});

const transition = (i: number, kind: Transition['kind'] = 'left_pending'): TransitionsEvent => ({
  type: 'transitions',
  watches: [],
  transitions: [
    {
      id: i,
      messageId: `${i}`.padStart(64, '0'),
      kind,
      fromStatus: 'pending',
      toStatus: 'delivered',
      at: 0,
      network: 'mainnet',
      source: 'local',
      sourceBlockchainId: `src${i}`,
      destinationBlockchainId: `dst${i}`,
      watchers: [],
    },
  ],
});

/** The registry as the core makes it: its own gauges and counters, and the live gauges its readers' part adds. */
function coreMetrics(queries: unknown, readers: LiveReaders): CoreMetrics {
  const m = new CoreMetrics({ queries: queries as never });
  registerLiveGauges(m.registry, readers);
  return m;
}

describe('core metrics', () => {
  it('caps a label at its first values; later ones count as "other"', () => {
    const cap = new LabelCap(2);
    expect(['a', 'b', 'c', 'a', 'd'].map((v) => cap.of(v))).toEqual(['a', 'b', 'other', 'a', 'other']);
  });

  it('keeps route label values bounded however many routes there are, and never labels by message ID', async () => {
    const m = coreMetrics(queries(MAX_ROUTES + 50), {
      pollStatus: () => ({ lastSuccessAt: 1_700_000_000_000, watching: 3 }) as never,
      rateLimitRemaining: () => null,
      alertsPending: () => 0,
      alertChannels: () => [],
    });
    for (let i = 0; i < MAX_ROUTES + 50; i++) m.observeEvent(transition(i));
    m.observeRequest({ ok: true });
    m.observeRequest({ ok: false, error: { kind: 'rate_limited' } });
    const text = await m.text();
    const routes = new Set([...text.matchAll(/^teleporter_watch_tracked_messages\{route="([^"]*)"/gm)].map((x) => x[1]));
    expect(routes.size).toBe(MAX_ROUTES + 1);
    expect(routes).toContain('other');
    expect(text).toMatch(/^teleporter_watch_tracked_messages\{route="other",status="pending"\} 50$/m);
    expect(text).toMatch(/^teleporter_watch_tracked_messages_by_watch\{watch="unlabelled",status="pending"\} 2$/m);
    expect(text).toMatch(/^teleporter_watch_delivery_latency_seconds_count\{route="other"\} 50$/m);
    expect(text).toMatch(/^teleporter_watch_poll_requests_total 2$/m);
    expect(text).toMatch(/^teleporter_watch_poll_errors_total\{kind="rate_limited"\} 1$/m);
    expect(text).toMatch(/^teleporter_watch_poll_rate_limited_total 1$/m);
    expect(text).toMatch(/^teleporter_watch_last_successful_poll_timestamp_seconds 1700000000$/m);
    // Unknown until the API says: no sample rather than a made-up value.
    expect(text).not.toMatch(/^teleporter_watch_ratelimit_remaining /m);
    expect(text).not.toContain('0'.repeat(60));
  });

  it("shows a label value's hidden characters, LF included, and keeps its backslashes and quotes escaped as the format wants", async () => {
    const m = coreMetrics(
      { ...queries(0), trackedByWatchLabel: () => [{ key: 'a\\b "q"\r\nc\u202E', status: 'pending', n: 1 }] },
      {
        pollStatus: () => ({ lastSuccessAt: null, watching: 1 }) as never,
        rateLimitRemaining: () => null,
        alertsPending: () => 0,
        alertChannels: () => [
          {
            key: 'webhook:ops',
            name: 'webhook ops',
            pending: 3,
            failures: 4,
            failingSince: 1_700_000_000_000,
            nextAttemptAt: 1_700_000_090_000,
            lastError: 'x',
          },
          { key: 'alertmanager:am', name: 'alertmanager am', pending: 0, failures: 0, failingSince: null, nextAttemptAt: null, lastError: null },
        ],
      },
    );
    const text = await m.text();
    expect(text).toContain('teleporter_watch_tracked_messages_by_watch{watch="a\\\\b \\"q\\"<U+000D><U+000A>c<U+202E>",status="pending"} 1');
    expect(text).not.toMatch(/[\r\u202E]/);
    // Each alert channel's backoff, by channel.
    expect(text).toMatch(/^teleporter_watch_alert_channel_failures\{channel="webhook ops"\} 4$/m);
    expect(text).toMatch(/^teleporter_watch_alert_channel_failures\{channel="alertmanager am"\} 0$/m);
    expect(text).toMatch(/^teleporter_watch_alert_channel_next_attempt_timestamp_seconds\{channel="webhook ops"\} 1700000090$/m);
    expect(text).toMatch(/^teleporter_watch_alert_channel_next_attempt_timestamp_seconds\{channel="alertmanager am"\} 0$/m);
  });
});
