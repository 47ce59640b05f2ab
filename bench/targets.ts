/**
 * A benchmark's targets: each figure against its limit, and the exit code (1 when any is missed).
 * Every limit can be overridden from the environment (BENCH_TARGET_<NAME>), which is how the tests
 * prove a bench fails when a target is missed.
 */
export interface Verdict {
  targets: Record<string, { value: number | null; limit: number; met: boolean }>;
  /** Names of the targets missed (empty: all met). */
  failed: string[];
}

/** A numeric setting from the environment, else its default (a bad value is an error, never ignored). */
export function envNumber(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n)) throw new Error(`${name} must be a number, not "${raw}".`);
  return n;
}

/** `figures`: name → [value, at most this]. A missing value (nothing measured) misses its target. */
export function judgeTargets(figures: Record<string, [value: number | null, atMost: number]>): Verdict {
  const targets: Verdict['targets'] = {};
  for (const [name, [value, atMost]] of Object.entries(figures)) {
    const limit = envNumber(`BENCH_TARGET_${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`, atMost);
    targets[name] = { value, limit, met: value !== null && value <= limit };
  }
  return {
    targets,
    failed: Object.entries(targets)
      .filter(([, t]) => !t.met)
      .map(([n]) => n),
  };
}

/** Prints the bench's one JSON line and sets the exit code from its verdict. */
export function report(result: Record<string, unknown>, verdict: Verdict): void {
  console.log(JSON.stringify({ ...result, ...verdict, pass: verdict.failed.length === 0 }));
  if (verdict.failed.length) {
    console.error(`bench: missed ${verdict.failed.map((n) => `${n} (${verdict.targets[n]!.value} > ${verdict.targets[n]!.limit})`).join(', ')}`);
    process.exitCode = 1;
  }
}
