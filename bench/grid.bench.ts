/**
 * `npm run bench:grid`: issue 27's matrix at the user's defaults. For each watch set (3, 20 and 1,000
 * addresses; 5 routes and 3 relayers, bench/grid-routes.ts) and each rate (0.02, 0.2, 2 and 20 messages/s),
 * one short core bench (bench/core-cell.ts: 30 s interval, the keyless plan, the service's limits on,
 * 30 min stuck threshold, 6 + 3 simulated minutes) with the two fair pollers beside the core (the routes'
 * row: the unfiltered list poller and the per-watch poller, one filtered list per route and one address
 * list per relayer). Each cell runs from 00:00 UTC (nothing of the day unspent to borrow) and, unless
 * BENCH_GRID_NOON=0, again from 12:00 (half the day unspent, for every caller alike).
 *
 * Every row is judged by the one verdict (bench/verdict.ts), the core and the fair pollers alike, their
 * spend as the service counted it: a fair poller counts when it is clean and keeps the spend rule; the
 * core passes when it is clean, keeps the rule, spent no more CU than the cheapest fair poller that
 * counts, and, where the plan keeps up (the cell's physical limit and its rate's late-record reads fit the
 * day pace), detects within 2 intervals (p95, late records within lag + 2); where it does not, finds
 * everything within the stated bound (30 min and 2 intervals after visible). Transitions a stated limit
 * covers (bench/stated-limits.ts: a baseline's page cap, a receipt met while baselining) are either way,
 * and those not reported are counted in a column of their own. Both rows of a cell count to the exit code.
 * Prints one JSON line, then one table (and a JSON line per row on stderr); exits 1 when a row fails.
 * BENCH_GRID_CELLS=3@0.2,1000@20,routes@2 runs only those cells.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PLAN_LIMITS, REQUEST_CU, type PlanName } from '../src/shared/plans';
import { DAY_MINUTES } from '../src/shared/time';
import { MAX_LATENESS_S } from '../src/shared/policy';
import { runCoreCell } from './core-cell';
import { envNumber, judgeTargets } from './targets';
import { coreKnobs } from './world-knobs';

/** Watched addresses, or `routes`: 5 routes and 3 relayers (bench/grid-routes.ts) in the 1,000-address world. */
type WatchSet = number | 'routes';
const WATCH_SETS: WatchSet[] = [3, 20, 1000, 'routes'];
const ROUTES_WORLD = 1000;
const RATES = [0.02, 0.2, 2, 20];
const MINUTES = envNumber('BENCH_MINUTES', 6);
const SETTLE_MINUTES = envNumber('BENCH_SETTLE_MINUTES', 3);
/**
 * The settle of a cell busier than the keyless day pace can follow (its news alone, a page of 100 per
 * 100 messages, takes a quarter of the pace or more: 20 msg/s): the stated bound once the traffic calms
 * (MAX_LATENESS_S for the last spans' echoes, and 5 minutes to read the owed ones), so "later, never lost"
 * is judged there, not a loss the settle was too short to see.
 */
const PRESSURE_SETTLE_MINUTES = envNumber('BENCH_PRESSURE_SETTLE_MINUTES', MAX_LATENESS_S / 60 + 5);
const settleFor = (rate: number) =>
  (rate * 60) / 100 >= PLAN_LIMITS.unauthenticated.cuPerDay / DAY_MINUTES / REQUEST_CU / 4 ? PRESSURE_SETTLE_MINUTES : SETTLE_MINUTES;
/** Each cell's starts, hours after 00:00 UTC: midnight always (no unspent day to borrow), noon unless BENCH_GRID_NOON=0. */
const STARTS = envNumber('BENCH_GRID_NOON', 1) ? [0, 12] : [0];

type Cell = Awaited<ReturnType<typeof runCoreCell>>['result'];
type Fair = NonNullable<Cell['listPoller']>;

function cellsToRun(): { set: WatchSet; rate: number }[] {
  const all = WATCH_SETS.flatMap((set) => RATES.map((rate) => ({ set, rate })));
  const asked = process.env.BENCH_GRID_CELLS;
  if (!asked) return all;
  return asked.split(',').map((c) => {
    const m = /^(\d+|routes)@([\d.]+)$/.exec(c.trim());
    if (!m) throw new Error(`BENCH_GRID_CELLS: "${c}" is not <addresses or routes>@<messages per second>, e.g. 3@0.2 or routes@2.`);
    return { set: m[1] === 'routes' ? 'routes' : Number(m[1]), rate: Number(m[2]) };
  });
}

const setLabel = (set: WatchSet) => (set === 'routes' ? '5 routes + 3 relayers' : `${set.toLocaleString('en-US')} addresses`);
const s = (ms: number | null) => (ms === null ? '–' : `${Math.round(ms / 1000)} s`);
const n = (v: number) => v.toLocaleString('en-US');

function fairCell(p: Fair | null, why: string | null | undefined): string {
  if (!p) return '–';
  return `${n(p.missed)} / ${n(p.requests.total)} / ${s(p.latencyMs.p95)} ${why ? `(out: ${why})` : '(counts)'}`;
}

/** Expected transitions a stated limit covers that the core did not report (bench/stated-limits.ts), by limit. */
const limitsCell = (l: Record<string, number>) =>
  Object.entries(l)
    .map(([k, v]) => `${n(v)} ${k}`)
    .join(', ') || '0';

/** The core's spend as the service counted it, against the rule's day allowance and minute limit. */
function spendCell(c: Cell): string {
  const sp = c.ours.spend;
  if (!sp) return `${n(c.ours.cu)} CU (limits lifted)`;
  return `${n(sp.cu)} / ${n(sp.dayAllowanceCu)}, peak minute ${n(sp.peakMinuteCu)} / ${n(sp.minuteLimitCu)}${sp.refused ? `, ${sp.refused}× 429` : ''}`;
}

function row(set: WatchSet, rate: number, c: Cell, failed: string[]): string {
  const o = c.ours;
  const v = c.verdict;
  const ph = c.physicalLimit;
  const standing = (name: string) => v.fair.find((f) => f.name === name)?.why;
  const verdict = failed.length ? `**FAIL**: ${failed.map((t) => `${t} ${JSON.stringify(v.targets[t]![0])} > ${v.targets[t]![1]}`).join(', ')}` : 'pass';
  const cheaper = v.cheaperFair ? `${v.oursOverCheaperFair} of ${v.cheaperFair.name}` : 'none counts';
  return `| ${setLabel(set)}, ${rate} msg/s | ${c.startUtc.slice(11, 16)} | ${c.transitionsExpected} (${c.stuckExpected} stuck) | ${o.missed} / ${o.duplicates} / ${o.unexpected} | ${limitsCell(o.limitsReached)} | ${n(o.requests.total)} (${o.requests.baseline} + ${o.requests.traffic} + ${o.requests.settle}) | ${spendCell(c)} | ${n(ph.requests)} (${ph.perMinute}/min${ph.keepsUp ? '' : ', over the day pace'}) | ${ph.oursOverPhysical} | ${cheaper} | ${s(o.onTime.latencyMs.p95)} | ${o.maxBehindSeconds} s | ${fairCell(c.listPoller, standing('list'))} | ${fairCell(c.perAddressPoller, standing(set === 'routes' ? 'per-watch' : 'per-address'))} | ${verdict} |`;
}

async function main(): Promise<void> {
  const started = Date.now();
  const rows: string[] = [];
  const cells: Record<string, unknown>[] = [];
  const failedRows: string[] = [];
  let plan: PlanName | null = null;
  for (const { set, rate } of cellsToRun()) {
    for (const startHourUtc of STARTS) {
      const routes = set === 'routes';
      const knobs = {
        ...coreKnobs({ addresses: routes ? ROUTES_WORLD : set, rate, minutes: MINUTES, settleMinutes: settleFor(rate) }),
        startHourUtc,
        routes,
      };
      plan = knobs.servicePlan;
      const work = mkdtempSync(join(tmpdir(), 'tw-grid-'));
      const cellStart = Date.now();
      const cell = await runCoreCell(knobs, work);
      await cell.close();
      rmSync(work, { recursive: true, force: true });
      const c = cell.result;
      const judged = judgeTargets(c.verdict.targets);
      const label = `${set}@${rate} from ${c.startUtc.slice(11, 16)}`;
      if (judged.failed.length) failedRows.push(`${label}: ${judged.failed.join(', ')}`);
      const wallSeconds = Math.round((Date.now() - cellStart) / 1000);
      console.error(JSON.stringify({ cell: label, wallSeconds, ...c, ...judged }));
      cells.push({
        cell: `${set}@${rate}`,
        startUtc: c.startUtc,
        wallSeconds,
        transitionsExpected: c.transitionsExpected,
        stuckExpected: c.stuckExpected,
        statedLimits: c.statedLimits,
        injected: c.injected,
        ours: {
          missed: c.ours.missed,
          duplicates: c.ours.duplicates,
          unexpected: c.ours.unexpected,
          missedByKind: c.ours.missedByKind,
          limitsReached: c.ours.limitsReached,
          requests: c.ours.requests,
          spend: c.ours.spend,
          p95Intervals: c.ours.onTime.p95Intervals,
          maxBehindSeconds: c.ours.maxBehindSeconds,
        },
        physicalLimit: c.physicalLimit,
        verdict: c.verdict,
        ...judged,
        pass: judged.failed.length === 0,
      });
      rows.push(row(set, rate, c, judged.failed));
    }
  }
  const pace = plan
    ? `${plan} plan (day pace ${Math.round(PLAN_LIMITS[plan].cuPerDay / DAY_MINUTES)} CU, ${Math.round(PLAN_LIMITS[plan].cuPerDay / DAY_MINUTES / REQUEST_CU)} list calls a minute)`
    : 'service limits lifted';
  const wallMinutes = Math.round((Date.now() - started) / 60_000);
  console.log(
    JSON.stringify({
      bench: 'grid',
      simulatedMinutes: MINUTES,
      settleMinutes: SETTLE_MINUTES,
      pressureSettleMinutes: PRESSURE_SETTLE_MINUTES,
      starts: STARTS,
      wallMinutes,
      cells,
      failed: failedRows,
      pass: failedRows.length === 0,
    }),
  );
  console.log(
    [
      `Grid at the defaults: 30 s interval, no key, ${pace}, stuck 30 min, realistic world, seed 42, ${MINUTES} + ${SETTLE_MINUTES} simulated minutes a row (+ ${PRESSURE_SETTLE_MINUTES} to settle at 20 msg/s: later, never lost); rows from 00:00 and ${STARTS.length > 1 ? 'from 12:00 UTC, both counting to the exit code' : 'only (BENCH_GRID_NOON=0)'}; ${wallMinutes} min of wall time.`,
      '',
      "| cell | start (UTC) | expected | core missed / dup / unexpected | stated limits reached (not reported, not missed) | core requests (baseline + traffic + settle) | core CU / the rule's day allowance, peak minute / limit | physical limit after the baseline | core / physical | core CU / the cheapest counting fair poller's | core p95 | core behind at most | list poller: missed / requests / p95 | per-address poller: missed / requests / p95 | verdict |",
      '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  if (failedRows.length) {
    console.error(`bench:grid: ${failedRows.length} row(s) failed: ${failedRows.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
