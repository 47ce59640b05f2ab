/** A network plan's input for tests: nothing watched, no cursor, 10-s interval, no trailing sweep due, with `o` on top. */
import type { NetworkPlanInput } from '../../src/core/poller/plan-types';

export const planInputAt = (nowMs: number, o: Partial<NetworkPlanInput> = {}): NetworkPlanInput => ({
  nowMs,
  intervalMs: 10_000,
  head: null,
  ratePerSec: null,
  addresses: [],
  feeds: [],
  due: [],
  addressPages: new Map(),
  overlapSec: 20,
  trail: null,
  // No trailing sweep due unless a test asks for one.
  lastTrailAt: nowMs,
  lastDiscoveryAt: null,
  ...o,
});
