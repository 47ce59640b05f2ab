/**
 * `npm run bench:fuel`: the core's relayer fuel and earnings (issue 31) against the simulator's truth.
 * The local service with the dry demo wallet, no history, the public CU limits on (the core is keyless:
 * the unauthenticated plan), from 13:00 (simulated) for BENCH_HOURS (3), the core polled at the app's
 * interval (30 s); every demo relayer with routes watched (their routes too), so one wallet runs dry
 * twice and is refilled at 14:00 and 16:00 while the others stay full.
 * Judged: at each read, balance, burn over the last hour and hours to empty within 5 % of the wallet's
 * truth; at the end, rewards paid + owed per relayer, route and token exact to the unit against the
 * service's records (paid: the service showed the receipt; a receipt the core could not have read yet by
 * its stated re-check cadence counts as owed, counted apart); every stall of the dry wallet alerted
 * before it; 0 fuel alerts for the full wallets, 0 alerts repeated within an episode; and from what the
 * service counted, never the core's counters: no wallet's balance read twice within 5 minutes (every
 * request, not sampled at polls), the spend within the published plan (bench/judge.ts).
 * Like with like: at each judged moment a delivery the core could not have read yet by its stated
 * re-check cadence is left out of the truth and counted (`notReadYetExcused`); any other delivery the core
 * lacks stays in the truth and counts as dropped (target 0).
 * Proof it fails (test/bench/fuel-judge.test.ts): BENCH_INJECT_DROPS loses deliveries in the core's
 * cache; BENCH_INJECT_MISSES / _DUPLICATES drop or repeat the core's fuel alerts; BENCH_INJECT_OVERSPEND
 * spends at the service as the core (bench/inject.ts).
 * Prints one JSON line; exits 1 on a miss.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createMonitorCore } from '../src/core';
import { startLocalService, type DemoRelayer } from '../src/local-service';
import type { PlanName } from '../src/shared/plans';
import { DEFAULT_SETTINGS, type NotificationPayload } from '../src/shared/contract';
import { chainByBlockchainId } from '../src/shared/chains';
import { roundHoursToEmpty, TIME_TO_EMPTY_CAP_HOURS, timeToEmptyStep } from '../src/shared/time-to-empty';
import { parseMessage, type TeleporterMessage } from '../src/shared/messages';
import type { RelayerEconomics } from '../src/shared/relayers';
import { DatabaseSync } from 'node:sqlite';
import { DATABASE_FILE } from '../src/core/store/database';
import { balanceReadGaps } from './balance-reads';
import { injected, overspend, tamper } from './inject';
import { JumpClock } from './jump-clock';
import { judgeSpend } from './judge';
import { CORE_ROW_SQL, coreStateOf, notReadYet, receiptLagAllowedMs, type CoreRow, type CoreState } from './not-read-yet';
import { RelayerTruth } from './relayer-truth';
import { dropDeliveries } from './relayers-inject';
import { ServiceCount } from './service-count';
import { envNumber, judgeTargets, report } from './targets';

const MIN = 60_000;
const HOUR = 60 * MIN;
const HOURS = envNumber('BENCH_HOURS', 3);
const RATE = envNumber('BENCH_RATE', 2);
const START = Date.UTC(2026, 0, 1, 13);
/** The app's poll interval: the core may read a wallet at any cycle, so a read too soon can show. */
const INTERVAL_MS = envNumber('BENCH_INTERVAL_S', DEFAULT_SETTINGS.pollIntervalSeconds) * 1000;
/** docs/limits.md BALANCE_READ_EVERY_MINUTES: a wallet is read this often at most (never sooner). */
const READ_EVERY_MS = 5 * MIN;
/** The core sends no key at the app's plan `auto`: the published unauthenticated plan, as the service enforces it. */
const PLAN: PlanName = 'unauthenticated';
/** The first cycles read the new routes' baselines: figures are judged from then on. */
const WARMUP_MS = envNumber('BENCH_WARMUP_MINUTES', 10) * MIN;
/** Proof that the judge fails on a lost delivery (test/bench/fuel-judge.test.ts); never set in a measured run. */
const INJECT_DROPS = envNumber('BENCH_INJECT_DROPS', 0);
const INJECT = injected();

const rel = (got: number, want: number) => (want === 0 ? (got === 0 ? 0 : 1) : Math.abs(got - want) / Math.abs(want));
/**
 * The app's time to empty against the truth's: the app shows it rounded to its step, at least a minute
 * (src/shared/time-to-empty.ts), and "more than a year" past a year, so the error is what lies beyond the
 * rounding of the truth's own figure (half a step, or up to the minute; 0 for a capped figure past the cap).
 */
const hoursErr = (got: number, want: number) =>
  want >= TIME_TO_EMPTY_CAP_HOURS
    ? got >= TIME_TO_EMPTY_CAP_HOURS
      ? 0
      : rel(got, want)
    : Math.max(0, Math.abs(got - want) - Math.max(timeToEmptyStep(want) / 2, Math.abs(roundHoursToEmpty(want)! - want))) / want;

async function main(): Promise<void> {
  const clock = new JumpClock(START);
  // What the service charged, with each path (a balance read names its wallet), and what it refused.
  const count = new ServiceCount(clock, true);
  const svc = await startLocalService({
    clock,
    rate: RATE,
    dryWallet: true,
    warmStore: false,
    computeUnits: { keyed: 'free', anonymous: PLAN },
    onCharge: count.onCharge,
    onRefused: count.onRefused,
  });
  /** The watched routes (filled below), for the truth of when each delivery first showed. */
  const routeLabels = new Map<string, string>();
  const truthLog = new RelayerTruth(svc, routeLabels);
  const dir = mkdtempSync(join(tmpdir(), 'tw-fuel-bench-'));
  const core = await createMonitorCore({
    shell: 'web',
    dataDir: dir,
    version: 'bench',
    clock,
    localService: { kind: 'url', url: svc.url },
    autoPoll: false,
    keychainService: `tw-fuel-bench-${randomBytes(4).toString('hex')}`,
  });
  await core.start();
  const call = async <T>(method: string, input?: unknown): Promise<T> => {
    const r = await core.invoke(method, input);
    if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
    return r.value as T;
  };
  const shown: (NotificationPayload & { at: number })[] = [];
  core.attachNotifier((n) => void shown.push({ ...n, at: clock.now() }));
  /** Every record the service holds (read once per cycle). */
  let cache: TeleporterMessage[] | null = null;
  const allRecords = (): TeleporterMessage[] => {
    if (cache) return cache;
    const out: TeleporterMessage[] = [];
    let before: number | undefined;
    for (;;) {
      const page = svc.store.page({}, before, 5000);
      for (const r of page.records) out.push(parseMessage(JSON.parse(r))!);
      if (!page.hasMore) break;
      before = page.positions[page.positions.length - 1];
    }
    return (cache = out);
  };
  try {
    const dry = svc.simulator.wallets.dry!;
    const info = (await (await fetch(`${svc.url}/_local/info`)).json()) as { demoRelayers: DemoRelayer[] };
    const relayers = info.demoRelayers.filter((r) => r.routes.length);
    const seen = new Set<string>();
    for (const relayer of relayers) {
      for (const r of relayer.routes)
        if (!seen.has(`${r.source}>${r.destination}`)) {
          seen.add(`${r.source}>${r.destination}`);
          routeLabels.set(`${r.source}>${r.destination}`, `${r.source}>${r.destination}`);
          await call('addRoute', { source: r.source, destination: r.destination, alert: false });
        }
      await call('addRelayer', { address: relayer.address, label: relayer.name, alert: false });
    }
    // Like with like (bench/not-read-yet.ts, shared with bench:relayers): a delivery the core holds pending,
    // last read before it showed, and not due for a re-check yet by the stated cadence is left out of the
    // truth of that judged moment (counted in `notReadYetExcused`); anything else the core lacks stays in
    // the truth (so the figures miss) and is counted as dropped, a target of 0.
    const excusedAt: Record<string, number> = {};
    const droppedAt: Record<string, number> = {};
    const droppedIds = new Set<string>();
    const droppedSample: { messageId: string; state: CoreState; at: string }[] = [];
    /** Per judged moment: which deliveries the core could not have read yet, and which it lacks otherwise. */
    const judgeGaps = (now: number): { excused: Set<string>; dropped: Set<string> } => {
      const byId = new Map(truthLog.deliveries().map((d) => [d.messageId, d]));
      const excused = new Set<string>();
      const dropped = new Set<string>();
      const db = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
      try {
        const one = db.prepare(CORE_ROW_SQL);
        for (const m of allRecords()) {
          if (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed') continue;
          const t = m.destinationTransaction.timestamp * 1000;
          if (t <= now - 24 * HOUR || t > now || !seen.has(`${m.sourceBlockchainId}>${m.destinationBlockchainId}`)) continue;
          // The relayers are watched on mainnet (the settings' network): the core reads no Fuji route.
          if (chainByBlockchainId(m.destinationBlockchainId)?.network !== 'mainnet') continue;
          // A delivery the truth never saw show (none expected) cannot be excused: as if shown at once.
          const d = byId.get(m.messageId) ?? {
            visibleAt: t,
            sentAt: null,
            deliveredAt: t,
            deliverer: m.destinationTransaction.delivererAddress,
          };
          const state = coreStateOf(one.get(m.messageId) as CoreRow | undefined, d);
          if (!state) continue;
          // Behind 0: the bench awaits each poll cycle, so the core's reads are never behind the clock.
          if (notReadYet(state, d, now, INTERVAL_MS, 0)) excused.add(m.messageId);
          else {
            dropped.add(m.messageId);
            if (droppedSample.length < 12 && !droppedIds.has(m.messageId))
              droppedSample.push({ messageId: m.messageId, state, at: new Date(now).toISOString() });
          }
        }
      } finally {
        db.close();
      }
      return { excused, dropped };
    };
    const paidOnWatched = (relayer: string, chain: string, now: number, excused: ReadonlySet<string>): bigint => {
      let sum = 0n;
      for (const m of allRecords()) {
        if (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed') continue;
        if (m.destinationBlockchainId !== chain || m.destinationTransaction.delivererAddress.toLowerCase() !== relayer) continue;
        const t = m.destinationTransaction.timestamp * 1000;
        if (t <= now - HOUR || t > now || !seen.has(`${m.sourceBlockchainId}>${m.destinationBlockchainId}`)) continue;
        if (!excused.has(m.messageId)) sum += BigInt(m.destinationTransaction.gasSpent);
      }
      return sum;
    };
    const started = performance.now();
    let maxBalanceErr = 0;
    let maxBurnErr = 0;
    let maxHoursErr = 0;
    let readsJudged = 0;
    const end = START + HOURS * HOUR;
    let econ: RelayerEconomics | null = null;
    for (;;) {
      await call('pollNow');
      const now = clock.now();
      if (INJECT_DROPS > 0 && now >= end) dropDeliveries(dir, INJECT_DROPS, now);
      econ = await call<RelayerEconomics>('relayerEconomics');
      const reads = econ.fuel.filter((f) => f.readAt === now && f.balance !== null);
      // Judged at each cycle that read a balance, and at the end (the truth is read from the store then).
      if (reads.length || now >= end) {
        // The service answers balances at its simulated time (a tick behind the clock at most): the truth then.
        const truth = svc.simulator.wallets.truth(svc.simulator.now());
        cache = null;
        const gaps = now < START + WARMUP_MS ? null : judgeGaps(now);
        const readKey = new Date(now).toISOString().slice(11, 19);
        for (const f of reads) {
          const w = truth.find((x) => x.relayer === f.relayer && x.blockchainId === f.blockchainId);
          if (!w) continue;
          readsJudged++;
          if (!gaps) continue;
          // What the wallet paid in the last hour for deliveries on watched routes (the figures' scope).
          const hour = paidOnWatched(f.relayer, f.blockchainId, now, gaps.excused);
          maxBalanceErr = Math.max(maxBalanceErr, rel(Number(BigInt(f.balance!)), Number(BigInt(w.balance))));
          maxBurnErr = Math.max(maxBurnErr, rel(Number(BigInt(f.burnLastHour)), Number(hour)));
          if (hour > 0n) maxHoursErr = Math.max(maxHoursErr, f.hoursToEmpty === null ? 1 : hoursErr(f.hoursToEmpty, Number(BigInt(w.balance)) / Number(hour)));
        }
        if (gaps?.excused.size) excusedAt[readKey] = gaps.excused.size;
        if (gaps?.dropped.size) droppedAt[readKey] = gaps.dropped.size;
        for (const id of gaps?.dropped ?? []) droppedIds.add(id);
      }
      if (now >= end) break;
      await clock.advance(INTERVAL_MS);
    }
    const at = clock.now();

    // Rewards per relayer, watched route and token over the last day, exact to the unit. Paid or owed as
    // the service showed it: paid once it showed the receipt. A receipt the core last read the message
    // before, shown within the stated fallback re-check (a quarter of the message's age, 5 min … 1 h, + 2
    // intervals), is not read yet: owed in the truth too, and counted (`receiptsNotReadYet`).
    cache = null;
    const records = allRecords();
    const endGaps = judgeGaps(at);
    const rewardsExcused = endGaps.excused.size;
    const watched = new Map(relayers.map((r) => [r.address.toLowerCase(), r.name]));
    const truthById = new Map(truthLog.deliveries().map((d) => [d.messageId, d]));
    const want = new Map<string, bigint>();
    let receiptsNotReadYet = 0;
    /** Receipts the service showed that the core holds as owed past the stated cadence (diagnosis). */
    const receiptsLate: { messageId: string; shownBeforeEndS: number; ageAtReceiptS: number; readBeforeEndS: number | null; allowedS: number }[] = [];
    const coreDb = new DatabaseSync(join(dir, DATABASE_FILE), { readOnly: true });
    try {
      const lastRead = coreDb.prepare('SELECT last_seen_at, receipt_delivered FROM messages WHERE message_id = ?');
      for (const m of records) {
        if (m.status !== 'delivered' && m.status !== 'delivered_source_not_indexed') continue;
        const t = m.destinationTransaction.timestamp * 1000;
        const name = watched.get(m.destinationTransaction.delivererAddress.toLowerCase());
        if (!name || t <= at - 24 * HOUR || t > at || !seen.has(`${m.sourceBlockchainId}>${m.destinationBlockchainId}`)) continue;
        // The relayers are watched on mainnet (the settings' network): their Fuji deliveries count elsewhere.
        if (chainByBlockchainId(m.destinationBlockchainId)?.network !== 'mainnet') continue;
        // Not read yet by the stated cadence: the core holds it pending, in neither paid nor owed.
        if (endGaps.excused.has(m.messageId)) continue;
        const d = truthById.get(m.messageId);
        const receiptAt = d ? d.receiptShownAt : m.receiptDelivered ? t : undefined;
        let paid = receiptAt !== undefined && receiptAt <= at;
        if (paid && d) {
          const row = lastRead.get(m.messageId) as { last_seen_at: number; receipt_delivered: number } | undefined;
          const allowed = receiptLagAllowedMs(receiptAt! - (d.sentAt ?? d.deliveredAt), INTERVAL_MS);
          if (row && row.last_seen_at < receiptAt! && at - receiptAt! <= allowed) {
            paid = false;
            receiptsNotReadYet++;
          } else if (row?.receipt_delivered === 0 && receiptsLate.length < 12)
            receiptsLate.push({
              messageId: m.messageId,
              shownBeforeEndS: Math.round((at - receiptAt!) / 1000),
              ageAtReceiptS: Math.round((receiptAt! - (d.sentAt ?? d.deliveredAt)) / 1000),
              readBeforeEndS: Math.round((at - row.last_seen_at) / 1000),
              allowedS: Math.round(allowed / 1000),
            });
        }
        for (const part of [paid ? 'paid' : 'owed', 'all']) {
          const key = `${name}|${m.sourceBlockchainId}>${m.destinationBlockchainId}|${m.rewardDetails.address.toLowerCase()}|${part}`;
          want.set(key, (want.get(key) ?? 0n) + BigInt(m.rewardDetails.value));
        }
      }
    } finally {
      coreDb.close();
    }
    const got = new Map<string, bigint>();
    for (const e of econ.earnings.day)
      for (const [part, sums] of [
        ['paid', e.paid],
        ['owed', e.owed],
      ] as const)
        for (const t of sums)
          for (const p of [part, 'all']) {
            const key = `${e.relayerLabel}|${e.sourceChain}>${e.destinationChain}|${t.token.toLowerCase()}|${p}`;
            got.set(key, (got.get(key) ?? 0n) + BigInt(t.value));
          }
    const mismatched = [...new Set([...want.keys(), ...got.keys()])].filter((k) => want.get(k) !== got.get(k));
    const rewardMismatches = mismatched.length;
    const rewardMismatchSample = mismatched.slice(0, 12).map((k) => ({ key: k, want: String(want.get(k) ?? 0n), got: String(got.get(k) ?? 0n) }));

    // The dry wallet: each stall in the run alerted before it; no fuel alert for any other wallet; one
    // alert per episode (a wallet's fires and refills alternate). Judged on the alerts as reported (tampered
    // only by the failing test's injections).
    const dryName = relayers.find((r) => r.address.toLowerCase() === dry.relayer)!.name;
    const isFuel = (n: { title: string }) => n.title.startsWith('Relayer low on gas: ') || n.title.startsWith('Relayer refilled: ');
    const fuelShown = tamper(shown.filter(isFuel), INJECT).sort((a, b) => a.at - b.at);
    const dryFires = fuelShown.filter((n) => n.title.startsWith(`Relayer low on gas: ${dryName} on `));
    const falseAlerts = fuelShown.filter((n) => n.title.startsWith('Relayer low on gas: ') && !n.title.startsWith(`Relayer low on gas: ${dryName} on `)).length;
    const lastTitle = new Map<string, string>();
    let repeatedAlerts = 0;
    for (const n of fuelShown) {
      const subject = n.title.slice(n.title.indexOf(': ') + 2);
      if (lastTitle.get(subject) === n.title) repeatedAlerts++;
      lastTitle.set(subject, n.title);
    }
    const stalls = svc.simulator.wallets
      .truth(at)
      .find((w) => w.relayer === dry.relayer && w.blockchainId === dry.blockchainId)!
      .stalls.filter((t) => t > START && t <= at);
    const stallsUnwarned = stalls.filter(
      (s) => !dryFires.some((f) => f.at < s && !fuelShown.some((r) => r.title.startsWith('Relayer refilled: ') && r.at > f.at && r.at < s)),
    ).length;

    // From the service's count alone: each wallet's reads (every request, not sampled at polls), and the spend.
    await overspend(svc.url, INJECT.overspend);
    // A read sooner than the cadence is the one brought forward when the estimate crosses the threshold
    // (docs/limits.md): excused only in the cycle a "low on gas" alert fired, one per alert.
    const lowFired = fuelShown.filter((n) => n.title.startsWith('Relayer low on gas: ')).map((n) => n.at);
    const reads = balanceReadGaps(count, 'anonymous', READ_EVERY_MS, lowFired, INTERVAL_MS);
    const spend = judgeSpend(count, 'anonymous', PLAN, START, clock.now(), count.refused('anonymous'));
    const verdict = judgeTargets({
      droppedDeliveries: [droppedIds.size, 0],
      maxBalanceErr: [maxBalanceErr, 0.05],
      maxBurnErr: [maxBurnErr, 0.05],
      maxHoursToEmptyErr: [maxHoursErr, 0.05],
      rewardMismatches: [rewardMismatches, 0],
      stallsUnwarned: [stalls.length ? stallsUnwarned : null, 0],
      falseAlerts: [falseAlerts, 0],
      repeatedAlerts: [repeatedAlerts, 0],
      readsTooSoon: [reads.tooSoon, 0],
      spendOverPlan: [spend.over === null ? 0 : 1, 0],
    });
    report(
      {
        bench: 'fuel',
        simulatedHours: HOURS,
        rate: RATE,
        pollIntervalSeconds: INTERVAL_MS / 1000,
        wallets: econ.fuel.length,
        readsJudged,
        stalls: stalls.length,
        dryAlerts: dryFires.length,
        refills: fuelShown.filter((n) => n.title.startsWith('Relayer refilled: ')).length,
        receiptsNotReadYet,
        receiptsLate,
        rewardMismatchSample,
        notReadYetExcused: { total: Object.values(excusedAt).reduce((s, n) => s + n, 0), byRead: excusedAt, rewardsAtEnd: rewardsExcused },
        droppedAt,
        droppedSample,
        injected: { drops: INJECT_DROPS, ...INJECT },
        balanceReads: { ...reads, atLeastMinutes: READ_EVERY_MS / MIN },
        spend,
        wallMs: Math.round(performance.now() - started),
      },
      verdict,
    );
  } finally {
    truthLog.stop();
    await core.close();
    await svc.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
