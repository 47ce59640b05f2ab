/**
 * Every limit and horizon the monitor keeps, in one place: the core plans with these, the UI shows them
 * and docs/limits.md states them (test/shared/policy-docs.test.ts holds the page to these figures).
 * The local service's world is not defined here: its limits are the public API's published figures
 * (src/local-data-api/compute-units.ts), never the app's.
 */

// Settings' defaults (Settings and the headless config change them).
/** How often the poller runs a cycle. */
export const DEFAULT_POLL_INTERVAL_S = 30;
/** A message still pending this long after it was sent fires `stuck`. */
export const DEFAULT_STUCK_MINUTES = 30;
/** How long the transition log and untracked messages are kept. */
export const DEFAULT_RETENTION_DAYS = 30;
/** What a relayer watch takes unless set: silent this long alerts, a message pending this long on its routes alerts. */
export const DEFAULT_SILENT_MINUTES = 30;
export const DEFAULT_PENDING_MINUTES = 10;
/** A watched route's oldest pending message this old alerts as a backlog. */
export const DEFAULT_BACKLOG_MINUTES = 30;
/** The fuel alert fires when a watched relayer's wallet would be empty within this many hours at the last hour's rate. */
export const DEFAULT_FUEL_THRESHOLD_HOURS = 6;

// Tracking.
/** The tracking limits, in hours: a receipt missing this long after the delivery; pending this long after sending. */
export const TRACKING_LIMIT_HOURS = { receipt_missing: 24, pending_too_long: 7 * 24 } as const;

// Baselines (a watch's silent first read).
/**
 * How far back an address's baseline reads (through the unfiltered list, or its own list while its pages
 * hold open messages): messages still open that were sent earlier than this before the watch began are
 * not followed (at the default stuck threshold they are stuck already).
 */
export const BASELINE_HORIZON_MS = 30 * 60_000;
/** How far back a saved feed's baseline reads while its pages hold open messages. */
export const FEED_BASELINE_HORIZON_MS = 24 * 3600_000;
/**
 * How many hours of a route's messages its baseline reads (the setting `routeHistoryHours`, 1 to 24): its
 * and its relayers' figures (deliveries, gas, rewards, pending) count the messages held, so by default the
 * hour figures are whole at once and the day figures say since when they count.
 */
export const DEFAULT_ROUTE_HISTORY_HOURS = 1;
/** A silent baseline reads at most this many pages of one list. */
export const BASELINE_MAX_PAGES = 50;

// Late records (src/core/poller/late-records.ts).
/** A record visible up to this long after its source timestamp is still caught (by the trailing sweep). */
export const MAX_LATENESS_S = 30 * 60;
/** A trailing sweep starts this often; a record later than the overlap is caught within about this long after it appears. */
export const TRAIL_PERIOD_MS = 5 * 60_000;
/**
 * A delivered message last read this long after the unfiltered list began to be read without a gap is no
 * longer re-checked for its receipt (src/core/poller/carrier-coverage.ts): every carrier since was read.
 */
export const COVERAGE_MARGIN_MS = MAX_LATENESS_S * 1000;
/** The overlap read below the cursor every cycle: at least this… */
export const MIN_OVERLAP_S = 20;
/** …at most this (later records are the sweep's). */
export const MAX_OVERLAP_S = 15 * 60;
/** A record up to this late is read within 2 intervals of appearing, whether or not such lateness was seen before. */
export const GUARANTEED_LATENESS_S = 10 * 60;
/** After an indexer stall, the sweeps that start within this long read down to its start. */
export const STALL_CATCH_UP_MS = 15 * 60_000;
/** A sweep after a stall reads at most this far below now: a record held back longer is not followed. */
export const STALL_MAX_SWEEP_S = 4 * 3600;

// Re-checks.
/** Messages younger than this are re-checked every cycle (older ones on a quarter of their age, at least 3 intervals). */
export const FRESH_AGE_MS = 2 * 60_000;
/**
 * While a baseline waits, this share of what a cycle has left after its news is kept for it: under a
 * budget the news, echoes and re-checks always use up, a baseline must still end (until then no `stuck`
 * of its history, and its older messages unread).
 */
export const BASELINE_SHARE_PERCENT = 25;

// Relayers, retention, alerts.
/** The shortest gap between two balance reads of one wallet (while its alert fires or its time to empty nears the threshold). */
export const BALANCE_READ_EVERY_MINUTES = 5;
/** The longest a wallet's balance goes unread: between reads the records tell its burn, not its refills or outside spending. */
export const BALANCE_MAX_AGE_MINUTES = 30;
/** What the retention setting no longer keeps is let go this often (and at start). */
export const PRUNE_EVERY_MS = 6 * 3600_000;
/** A firing episode stays firing in Alertmanager this long unless its resolve (or a newer push) comes first. */
export const EPISODE_HOLD_MS = 24 * 3_600_000;

// Seeing (the data source's health; src/core/sources/source-health.ts).
/** Reads of the source (or of one own node) failing this long make it `down`: its alert fires (shorter failures are `degraded`, retried). */
export const SOURCE_DOWN_AFTER_MS = 2 * 60_000;
/** After a source or chain comes back, its held alerts wait for a complete read, at most this long (a list busier than the budget is never read whole). */
export const CATCH_UP_MAX_MS = 5 * 60_000;
/**
 * A failing alert channel retries after a wait drawn at random between this base and an exponential
 * ceiling (the base times 2 per failure in a row), and never waits longer than the cap: a dead receiver
 * is asked at most once per base, and after about 8 failures at most every 5 min (src/core/alerts/backoff.ts).
 */
export const ALERT_RETRY_BASE_MS = 2_000;
export const ALERT_RETRY_MAX_MS = 5 * 60_000;

// The boundary: what a record from the Data API, a custom URL or your own nodes may hold
// (src/shared/record-bounds.ts, src/chain-index/node-answers.ts). A record or block outside these is
// skipped with a named reason, counted and logged once per kind; it is never stored.
/** The earliest transaction time a record may carry: 2020-01-01 00:00 UTC (before Avalanche's mainnet). */
export const EARLIEST_RECORD_TIME_S = 1_577_836_800;
/** How far past this machine's clock a transaction's time may be (a clock a little behind, a block producer's skew). */
export const FUTURE_TIME_TOLERANCE_S = 24 * 3600;
/** The longest text field of a record (IDs, addresses, hashes, names, links, any field it does not know). */
export const MAX_RECORD_FIELD_CHARS = 2_048;
/** The largest message payload (`data`) a record may carry, decoded: more than a block's gas pays for. */
export const MAX_MESSAGE_DATA_BYTES = 1_048_576;
/** The largest record as JSON: its payload in hex and room for everything else. */
export const MAX_RECORD_CHARS = 2_621_440;
/** The largest answer the Data API client reads (a page of 100 records); a longer one is cut and not read. */
export const MAX_ANSWER_BYTES = 64 * 1_048_576;

// A relayer's own metrics (its Prometheus endpoint, beside what the chains show: docs/relayer-metrics.md).
/**
 * How often a watched relayer's metrics URL is read: its counters only move as it relays, and the
 * comparison needs a few reads inside its window, so a read every 2 min is enough and costs the relayer nothing.
 */
export const RELAYER_METRICS_EVERY_MINUTES = 2;
/** A metrics answer not complete within this long is "not read" (the relayer answers its own port in milliseconds). */
export const RELAYER_METRICS_TIMEOUT_MS = 5_000;
/** A metrics answer larger than this is "not read" (a relayer's is a few kB per route; more is not a relayer's metrics page). */
export const RELAYER_METRICS_MAX_BYTES = 2_000_000;
/** The window the relayer's counts and the chains' deliveries are compared over (and its failures counted in). */
export const RELAYER_METRICS_WINDOW_MINUTES = 15;
