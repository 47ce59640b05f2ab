/**
 * Fault injection for the client's tests: 5xx bursts, 429 with Retry-After, slow responses,
 * malformed JSON with status 200, connection resets and requests never answered (the client times
 * out), each at a stated per-request rate and
 * reproducible from the seed. A spec is a preset name and/or `key:value` items, comma-separated:
 *   flaky | ratelimited | slow | malformed | chaos | none
 *   5xx:<p> 429:<p> slow:<p> malformed:<p> reset:<p> timeout:<p>   (probabilities; their sum must be <= 1)
 *   burst:<n>        a 5xx repeats for n requests in a row (default 1)
 *   slowMs:<ms>      delay of a slow response (default 1500)
 *   retryAfter:<s>   Retry-After of an injected 429 (default 1)
 *   timeoutMs:<ms>   how long a timed-out request is held before its connection is closed (default 20000, real time)
 * Later items override earlier ones, e.g. "flaky,burst:1".
 */
import { fail, ok, type Parsed } from '../shared/result';
import { Rng } from '../shared/rng';

interface FaultSpec {
  '5xx': number;
  '429': number;
  slow: number;
  malformed: number;
  reset: number;
  burst: number;
  slowMs: number;
  retryAfter: number;
  timeout: number;
  timeoutMs: number;
}

const NO_FAULTS: FaultSpec = {
  '5xx': 0,
  '429': 0,
  slow: 0,
  malformed: 0,
  reset: 0,
  burst: 1,
  slowMs: 1500,
  retryAfter: 1,
  timeout: 0,
  timeoutMs: 20_000,
};

export const FAULT_PRESETS: Record<string, string> = {
  none: '',
  flaky: '5xx:0.2,burst:2,reset:0.05',
  ratelimited: '429:0.3,retryAfter:1',
  slow: 'slow:0.5,slowMs:1500',
  malformed: 'malformed:0.2',
  chaos: '5xx:0.1,429:0.1,slow:0.1,malformed:0.05,reset:0.05,burst:2,slowMs:1000',
};

const RATES = ['5xx', '429', 'slow', 'malformed', 'reset', 'timeout'] as const;
const COUNTS = { burst: [1, 100], slowMs: [0, 120_000], retryAfter: [0, 3600], timeoutMs: [0, 600_000] } as const;

export function parseFaultSpec(input: string): Parsed<FaultSpec> {
  const spec: FaultSpec = { ...NO_FAULTS };
  const items = input
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const item of items) {
    const preset = FAULT_PRESETS[item];
    if (preset !== undefined) {
      const expanded = parseFaultSpec(preset);
      if (!expanded.ok) return expanded;
      Object.assign(spec, expanded.value);
      continue;
    }
    const m = /^([A-Za-z0-9]+):(.+)$/.exec(item);
    if (!m) return fail(`Fault item "${item}" is neither a preset (${Object.keys(FAULT_PRESETS).join(', ')}) nor key:value.`);
    const key = m[1]!;
    const value = Number(m[2]);
    if ((RATES as readonly string[]).includes(key)) {
      if (!Number.isFinite(value) || value < 0 || value > 1) return fail(`Fault rate ${key} must be a probability between 0 and 1 (got "${m[2]}").`);
      spec[key as (typeof RATES)[number]] = value;
    } else if (key in COUNTS) {
      const [min, max] = COUNTS[key as keyof typeof COUNTS];
      if (!Number.isInteger(value) || value < min || value > max)
        return fail(`Fault setting ${key} must be a whole number from ${min} to ${max} (got "${m[2]}").`);
      spec[key as keyof typeof COUNTS] = value;
    } else {
      return fail(`Unknown fault "${key}": use ${[...RATES, ...Object.keys(COUNTS)].join(', ')} or a preset (${Object.keys(FAULT_PRESETS).join(', ')}).`);
    }
  }
  const total = RATES.reduce((s, k) => s + spec[k], 0);
  if (total > 1 + 1e-9) return fail(`Fault rates add up to ${total.toFixed(3)}; their sum must not exceed 1.`);
  return ok(spec);
}

export type FaultAction =
  | { kind: 'none' }
  | { kind: 'reset' }
  | { kind: 'error'; status: 500 | 502 | 503 }
  | { kind: 'rate_limited'; retryAfter: number }
  | { kind: 'malformed'; variant: 'truncated' | 'not_json' | 'wrong_shape' }
  | { kind: 'slow'; ms: number }
  /** No answer: the connection is held for `ms` (real time), then closed. */
  | { kind: 'timeout'; ms: number };

export class FaultInjector {
  private spec: FaultSpec = NO_FAULTS;
  private rng: Rng;
  private burstLeft = 0;
  private burstStatus: 500 | 502 | 503 = 500;

  constructor(private readonly seed: number) {
    this.rng = new Rng(seed ^ 0x5eedfa17);
  }

  get active(): FaultSpec {
    return this.spec;
  }

  /** Replaces the profile and restarts its random sequence (so a test's outcome is reproducible). */
  set(spec: FaultSpec | null): void {
    this.spec = spec ?? NO_FAULTS;
    this.rng = new Rng(this.seed ^ 0x5eedfa17);
    this.burstLeft = 0;
  }

  /** What to do to the next request. */
  decide(): FaultAction {
    if (this.burstLeft > 0) {
      this.burstLeft--;
      return { kind: 'error', status: this.burstStatus };
    }
    const s = this.spec;
    if (RATES.every((k) => s[k] === 0)) return { kind: 'none' };
    let u = this.rng.next();
    if ((u -= s.reset) < 0) return { kind: 'reset' };
    if ((u -= s['5xx']) < 0) {
      this.burstStatus = this.rng.pick([500, 502, 503] as const);
      this.burstLeft = s.burst - 1;
      return { kind: 'error', status: this.burstStatus };
    }
    if ((u -= s['429']) < 0) return { kind: 'rate_limited', retryAfter: s.retryAfter };
    if ((u -= s.malformed) < 0) return { kind: 'malformed', variant: this.rng.pick(['truncated', 'not_json', 'wrong_shape'] as const) };
    if ((u -= s.slow) < 0) return { kind: 'slow', ms: s.slowMs };
    // Drawn last, so adding it left the sequences of the other kinds as they were.
    if ((u -= s.timeout) < 0) return { kind: 'timeout', ms: s.timeoutMs };
    return { kind: 'none' };
  }
}
