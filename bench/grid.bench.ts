/**
 * `npm run bench:grid`: issue 27's matrix at the user's defaults. For each watch set (3, 20 and 1,000
 * addresses; 5 routes and 3 relayers, bench/grid-routes.ts) and each rate (0.02, 0.2, 2 and 20 messages/s), one short core bench (bench/core-cell.ts:
 * 30 s interval, the keyless plan, the service's limits on, 30 min stuck threshold, 6 + 3 simulated
 * minutes) with the two fair pollers beside the core (the routes' row: the unfiltered list poller and the
 * per-watch poller, one filtered list per route and one address list per relayer). A cell passes when the core missed nothing, reported
 * nothing twice and nothing unexpected, and spent no more requests than the cheaper fair poller that
 * counts (one that missed nothing, was never refused and kept to the plan's day pace); where none counts
 * (no simple poller fits the budget), the core must still lose nothing, and the table says how far
 * behind it fell. Prints one table (and a JSON line per cell on stderr); exits 1 when a cell fails.
 * BENCH_GRID_CELLS=3@0.2,1000@20,routes@2 runs only those cells.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PUBLIC_PLANS, type PublicPlan } from '../src/local-data-api/compute-units';
import { runCoreCell } from './core-cell';
import { envNumber } from './targets';
import { coreKnobs } from './world-knobs';

/** Watched addresses, or `routes`: 5 routes and 3 relayers (bench/grid-routes.ts) in the 1,000-address world. */
type WatchSet = number | 'routes';
const WATCH_SETS: WatchSet[] = [3, 20, 1000, 'routes'];
const ROUTES_WORLD = 1000;
const RATES = [0.02, 0.2, 2, 20];
const MINUTES = envNumber('BENCH_MINUTES', 6);
const SETTLE_MINUTES = envNumber('BENCH_SETTLE_MINUTES', 3);
/** CU per list call (the service's weight of every operation the pollers use). */
const CALL_CU = 20;

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

/** Requests a minute a plan's day sustains (its day quota spread over the day, at CALL_CU a call). */
const dayPace = (plan: PublicPlan) => PUBLIC_PLANS[plan].cuPerDay / 1440 / CALL_CU;

/** Why a fair poller does not count (null: it does). */
function disqualified(p: Fair | null, minutes: number, pace: number): string | null {
  if (!p) return 'not run';
  if (p.missed || p.duplicates || p.unexpected) return `${p.missed} missed, ${p.duplicates} dup, ${p.unexpected} unexpected`;
  if (p.refusedWalks) return `refused ${p.refusedWalks}× (429)`;
  if (p.requests.total / minutes > pace) return `${Math.round(p.requests.total / minutes)}/min > day pace`;
  return null;
}

function judge(c: Cell, pace: number) {
  const minutes = c.simulatedMinutes + c.settleMinutes;
  const fair = [
    { name: 'list', p: c.listPoller, why: disqualified(c.listPoller, minutes, pace) },
    { name: 'per-address', p: c.perAddressPoller, why: disqualified(c.perAddressPoller, minutes, pace) },
  ];
  const counting = fair.filter((f) => f.why === null).map((f) => f.p!.requests.total);
  const cheapest = counting.length ? Math.min(...counting) : null;
  const clean = c.ours.missed === 0 && c.ours.duplicates === 0 && c.ours.unexpected === 0;
  const cheapEnough = cheapest === null || c.ours.requests.total <= cheapest;
  return {
    fair,
    cheapest,
    pass: clean && cheapEnough,
    why: !clean ? 'core lost or repeated' : !cheapEnough ? `core ${c.ours.requests.total} > ${cheapest}` : '',
  };
}

const s = (ms: number | null) => (ms === null ? '–' : `${Math.round(ms / 1000)} s`);
const fairCell = (p: Fair | null, why: string | null) => (p ? `${p.missed} / ${p.requests.total} / ${s(p.latencyMs.p95)}${why ? ` (out: ${why})` : ''}` : '–');

async function main(): Promise<void> {
  const started = Date.now();
  const rows: string[] = [];
  let failed = 0;
  let plan: PublicPlan | null = null;
  for (const { set, rate } of cellsToRun()) {
    const routes = set === 'routes';
    const knobs = { ...coreKnobs({ addresses: routes ? ROUTES_WORLD : set, rate, minutes: MINUTES, settleMinutes: SETTLE_MINUTES }), routes };
    plan = knobs.servicePlan;
    const work = mkdtempSync(join(tmpdir(), 'tw-grid-'));
    const cellStart = Date.now();
    const cell = await runCoreCell(knobs, work);
    await cell.close();
    rmSync(work, { recursive: true, force: true });
    const c = cell.result;
    const v = judge(c, dayPace(knobs.servicePlan ?? 'unauthenticated'));
    if (!v.pass) failed++;
    console.error(JSON.stringify({ cell: `${set}@${rate}`, wallSeconds: Math.round((Date.now() - cellStart) / 1000), ...c, verdict: v }));
    const o = c.ours;
    rows.push(
      `| ${setLabel(set)}, ${rate} msg/s | ${c.transitionsExpected} (${c.stuckExpected} stuck) | ${o.missed} / ${o.duplicates} / ${o.unexpected} | ${o.requests.total} (${o.requests.baseline} + ${o.requests.traffic} + ${o.requests.settle}) | ${s(o.onTime.latencyMs.p95)} | ${o.maxBehindSeconds} s | ${fairCell(c.listPoller, v.fair[0]!.why)} | ${fairCell(c.perAddressPoller, v.fair[1]!.why)} | ${v.pass ? 'pass' : `**FAIL**: ${v.why}`} |`,
    );
  }
  const pace = plan ? `${plan} plan (day pace ${Math.round(dayPace(plan))} requests a minute)` : 'service limits lifted';
  console.log(
    [
      `Grid at the defaults: 30 s interval, no key, ${pace}, stuck 30 min, realistic world, seed 42, ${MINUTES} + ${SETTLE_MINUTES} simulated minutes a cell; ${Math.round((Date.now() - started) / 60_000)} min of wall time.`,
      '',
      '| cell | expected | core missed / dup / unexpected | core requests (baseline + traffic + settle) | core p95 | core behind at most | list poller: missed / requests / p95 | per-address poller: missed / requests / p95 | verdict |',
      '|---|---|---|---|---|---|---|---|---|',
      ...rows,
    ].join('\n'),
  );
  if (failed) {
    console.error(`bench:grid: ${failed} cell(s) failed`);
    process.exitCode = 1;
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
