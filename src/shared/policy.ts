/**
 * Every limit, horizon and tunable the monitor keeps, in one place: the core plans with these, the UI
 * shows them and docs/limits.md states them (test/shared/policy-docs.test.ts holds the page to these
 * figures). Time units come from time.ts; the Data API's plans from plans.ts. The local service's world
 * is not defined here: its limits are the public API's published figures (plans.ts), never the app's.
 */
import { HOUR_MS, MINUTE_MS, SECOND_MS } from './time';

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
export const BASELINE_HORIZON_MS = 30 * MINUTE_MS;
/** How far back a saved feed's baseline reads while its pages hold open messages. */
export const FEED_BASELINE_HORIZON_MS = 24 * HOUR_MS;
/**
 * How many hours of a route's messages its baseline reads (the setting `routeHistoryHours`, 1 to 24): its
 * and its relayers' figures (deliveries, gas, rewards, pending) count the messages held, so by default the
 * hour figures are whole at once and the day figures say since when they count.
 */
export const DEFAULT_ROUTE_HISTORY_HOURS = 1;
/** The most a route's history reads (the setting and "Read last N h"): its figures cover the last day. */
export const MAX_ROUTE_HISTORY_HOURS = 24;
/** A silent baseline reads at most this many pages of one list. */
export const BASELINE_MAX_PAGES = 50;
/** With this many addresses waiting for a baseline, one pass over the unfiltered list is cheaper than each its own. */
export const FIREHOSE_BASELINE_MIN_ADDRESSES = 20;
/** A baseline through the unfiltered list reads at most this many pages (its addresses' BASELINE_MAX_PAGES each, capped). */
export const MAX_BASELINE_FIREHOSE_PAGES = 2000;

// Discovery (src/core/poller/planner.ts).
/** A read of one list from the top reads at most this many pages a cycle (more goes on next cycle), unless its overlap needs more. */
export const MAX_PAGES_PER_SCAN = 60;
/**
 * Per-address discovery pages a list this deep for its due messages, deeper only while each page finds
 * one; one still pending below (a message stuck for long) is asked by ID: otherwise the list's every
 * read grows with that message's age until one list's read takes the cycle's whole budget.
 */
export const NEED_MAX_PAGES = 10;
/** A watched list's own rate (which decides per-address or unfiltered reads) is counted over this window. */
export const LIST_RATE_WINDOW_S = 600;

// Late records (src/core/poller/late-records.ts).
/** A record visible up to this long after its source timestamp is still caught (by the trailing sweep). */
export const MAX_LATENESS_S = 30 * 60;
/** A trailing sweep starts this often; a record later than the overlap is caught within about this long after it appears. */
export const TRAIL_PERIOD_MS = 5 * MINUTE_MS;
/**
 * A delivered message last read this long after the unfiltered list began to be read without a gap is no
 * longer re-checked for its receipt (src/core/poller/carrier-coverage.ts): every carrier since was read.
 */
export const COVERAGE_MARGIN_MS = MAX_LATENESS_S * SECOND_MS;
/** The overlap read below the cursor every cycle: at least this… */
export const MIN_OVERLAP_S = 20;
/** …at most this (later records are the sweep's). */
export const MAX_OVERLAP_S = 15 * 60;
/** A record up to this late is read within 2 intervals of appearing, whether or not such lateness was seen before. */
export const GUARANTEED_LATENESS_S = 10 * 60;
/** After an indexer stall, the sweeps that start within this long read down to its start. */
export const STALL_CATCH_UP_MS = 15 * MINUTE_MS;
/** A sweep after a stall reads at most this far below now: a record held back longer is not followed. */
export const STALL_MAX_SWEEP_S = 4 * 3600;
/** The full overlap is read once every this many intervals (a record is read within as many intervals of appearing). */
export const FULL_OVERLAP_INTERVALS = 2;
/** The overlap is this many times the largest lateness seen in the last LATENESS_WINDOW_MS: room for a little worse. */
export const OVERLAP_FACTOR = 1.5;
/** How long a record's lateness counts for the overlap (and how long a stall stays in the poll status after it ended). */
export const LATENESS_WINDOW_MS = HOUR_MS;
/** At most this many lateness samples are kept (the newest): a burst of late records costs memory no more. */
export const LATENESS_MAX_SAMPLES = 256;
/** Of what a cycle has left after its news, the share the echoes due may take (an echo costs about one cycle's news). */
export const ECHO_SHARE = 2 / 3;
/** A budget that has saved this many cycles of today's late-record reads pays them (the grid's noon start); less, it goes by the day's pace. */
export const LATE_READS_SAVED_CYCLES = 120;

// The Data API client (src/core/data-api/client.ts, pools.ts).
/** Keep-alive connections to one origin: requests in parallel without opening a socket each. */
export const DATA_API_CONNECTIONS = 6;
/** A call with no answer (headers or body) this long fails as a timeout and is retried. */
export const DATA_API_TIMEOUT_MS = 15 * SECOND_MS;
/** A failed call (network, timeout, 5xx, malformed answer, a 429) is retried at most this many times. */
export const DATA_API_MAX_RETRIES = 3;
/** Retries wait this long, doubled per attempt, jittered: a struggling server is not hammered. */
export const DATA_API_BACKOFF_BASE_MS = 500;
/** A 429 asking to wait longer than this fails the call instead of waiting in it (the budget holds every call until then). */
export const DATA_API_MAX_RETRY_AFTER_MS = 30 * SECOND_MS;

// Re-checks.
/** Messages younger than this are re-checked every cycle (older ones on a quarter of their age, at least RECHECK_MIN_INTERVALS). */
export const FRESH_AGE_MS = 2 * MINUTE_MS;
/** An older pending message is re-checked at most this often, in poll intervals: quick enough, not every cycle. */
export const RECHECK_MIN_INTERVALS = 3;
/**
 * A delivered message awaiting its receipt where carriers are read is re-checked by ID at most this
 * often (a fallback for a carrier missed: the carrier usually brings it first).
 */
export const RECHECK_FALLBACK_MS = 5 * MINUTE_MS;
/** Any re-check by age (pending, receipt fallback, a carrier's original) comes at least this often: an old message still moves. */
export const RECHECK_MAX_MS = HOUR_MS;
/** Re-checks by ID in flight at once: one per connection of the HTTP pool. */
export const RECHECK_PARALLEL_REQUESTS = DATA_API_CONNECTIONS;
/** A remembered pending carrier is dropped after this long (it is stuck; the fallback cadence covers its originals). */
export const FORGET_PENDING_MS = HOUR_MS;
/**
 * An original a carrier named is asked for every cycle until it was read this many times (the API's
 * record of it may lag behind the carrier's), then on the fallback cadence.
 */
export const CARRIER_ORIGINAL_READS = 3;
/** A failed execution is followed for its retry this long after its delivery: the failed-execution alert's window. */
export const RETRY_FOLLOW_MS = HOUR_MS;
/** Offline, the next cycles come after these waits (then every last one) until one succeeds: quick back, no hammering. */
export const OFFLINE_RETRY_MS = [2 * SECOND_MS, 5 * SECOND_MS, 10 * SECOND_MS, 30 * SECOND_MS] as const;

// The Data API budget (src/core/data-api/budget.ts; the plans themselves are shared/plans.ts).
/** How far back the current pace is measured (the quota line's projection): long enough to smooth a burst. */
export const PACE_WINDOW_MS = 15 * MINUTE_MS;
/** Longest a call waits in the queue for the budget before it fails with a clear error. */
export const MAX_QUEUE_WAIT_MS = 30 * SECOND_MS;
/** The longest reason an HTTP error's message quotes from an answer (the rest is cut: a page of HTML says nothing more). */
export const MAX_REASON_CHARS = 120;
/** Data sources whose skipped-record counts are kept (the user switches between a few; a later one drops the oldest). */
export const SKIPPED_COUNT_SOURCES = 8;
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
export const PRUNE_EVERY_MS = 6 * HOUR_MS;
/** A firing episode stays firing in Alertmanager this long unless its resolve (or a newer push) comes first. */
export const EPISODE_HOLD_MS = 24 * HOUR_MS;
/** How far back a watched relayer's last delivery is looked for (its figures cover the last 24 h; "last seen" may be older). */
export const RELAYER_LOOKBACK_MS = 7 * 24 * HOUR_MS;

// Seeing (the data source's health; src/core/sources/source-health.ts).
/** Reads of the source (or of one own node) failing this long make it `down`: its alert fires (shorter failures are `degraded`, retried). */
export const SOURCE_DOWN_AFTER_MS = 2 * MINUTE_MS;
/** After a source or chain comes back, its held alerts wait for a complete read, at most this long (a list busier than the budget is never read whole). */
export const CATCH_UP_MAX_MS = 5 * MINUTE_MS;
/**
 * A failing alert channel retries after a wait drawn at random between this base and an exponential
 * ceiling (the base times 2 per failure in a row), and never waits longer than the cap: a dead receiver
 * is asked at most once per base, and after about 8 failures at most every 5 min (src/core/alerts/backoff.ts).
 */
export const ALERT_RETRY_BASE_MS = 2 * SECOND_MS;
export const ALERT_RETRY_MAX_MS = 5 * MINUTE_MS;

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
/** How many failed executions a route lists by ID per window (the count beside it is exact): the list stays a readable size. */
export const MAX_LISTED_FAILED_MESSAGES = 100;
/** How many owed rewards' message IDs one sendSpecifiedReceipts call carries (each receipt costs its delivery gas on the way back). */
export const MAX_OWED_MESSAGES_PER_CALL = 20;
