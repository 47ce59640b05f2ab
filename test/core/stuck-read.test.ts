/**
 * stuck-read.ts: `stuck` is judged from a read in the interval before the threshold or since, never from
 * an older one (under pressure that older read missed a delivery: a false `stuck`); such a message is
 * asked for every cycle for CATCH_UP_MAX_MS past its threshold, then on its cadence.
 */
import { describe, expect, it } from 'vitest';
import { stuckReadDue, stuckUnconfirmed } from '../../src/core/poller/stuck-read';
import type { TrackedMessage } from '../../src/core/store';
import { CATCH_UP_MAX_MS } from '../../src/shared/policy';

const MIN = 60_000;
const THRESHOLD = 30 * MIN;
const INTERVAL = 30_000;
const SENT = 1_767_225_600_000;
const at = SENT + THRESHOLD;

const tracked = (o: Partial<TrackedMessage>): TrackedMessage =>
  ({ status: 'pending', stuckFired: false, pendingSince: SENT, firstSeenAt: SENT, lastSeenAt: SENT, sortTs: SENT / 1000, ...o }) as TrackedMessage;

describe('stuck from a read at its threshold', () => {
  it('holds a message last read before the interval before its threshold, not one read in it or since', () => {
    expect(stuckUnconfirmed({ ...tracked({}), lastSeenAt: SENT + 10 * MIN }, at, THRESHOLD, INTERVAL)).toBe(true);
    expect(stuckUnconfirmed({ ...tracked({}), lastSeenAt: at - INTERVAL }, at, THRESHOLD, INTERVAL)).toBe(false);
    expect(stuckUnconfirmed({ ...tracked({}), lastSeenAt: at + MIN }, at + MIN, THRESHOLD, INTERVAL)).toBe(false);
    // Not pending, already stuck, or its pending time unknown (the engine counts from its last read): nothing to hold.
    expect(stuckUnconfirmed({ ...tracked({}), status: 'delivered' }, at, THRESHOLD, INTERVAL)).toBe(false);
    expect(stuckUnconfirmed({ ...tracked({}), stuckFired: true }, at, THRESHOLD, INTERVAL)).toBe(false);
    expect(stuckUnconfirmed({ ...tracked({}), pendingSince: null }, at, THRESHOLD, INTERVAL)).toBe(false);
    // Long before its threshold: not the rule's business.
    expect(stuckUnconfirmed(tracked({}), SENT + 10 * MIN, THRESHOLD, INTERVAL)).toBe(false);
  });

  it('asks for it every cycle for CATCH_UP_MAX_MS past the threshold, then leaves it to its cadence', () => {
    const t = { ...tracked({}), lastSeenAt: SENT + 10 * MIN };
    expect(stuckReadDue(t, at - INTERVAL, THRESHOLD, INTERVAL)).toBe(true);
    expect(stuckReadDue(t, at + CATCH_UP_MAX_MS - 1, THRESHOLD, INTERVAL)).toBe(true);
    expect(stuckReadDue(t, at + CATCH_UP_MAX_MS, THRESHOLD, INTERVAL)).toBe(false);
  });
});
