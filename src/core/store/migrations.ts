/**
 * Numbered schema migrations. Each entry runs once, in order, inside a transaction; the database's
 * `user_version` records how many have run. Never edit a shipped entry: append a new one.
 */
/**
 * A transaction time (s) a record may carry: 2020-01-01 to a day past now, policy.ts' EARLIEST_RECORD_TIME_S
 * and FUTURE_TIME_TOLERANCE_S when this entry shipped (written out: a shipped entry never changes).
 */
const OUT_OF_RANGE = (column: string) => `${column} NOT BETWEEN 1577836800 AND unixepoch() + 86400`;
/** A row written before the boundary checks that no read survives: its sort key (rowid, seconds × 1e6) past 2^53, or a time out of range. */
const UNREADABLE = `rowid > 9007199254740991 OR rowid < 0 OR ${OUT_OF_RANGE('source_ts')} OR ${OUT_OF_RANGE('destination_ts')}`;

/**
 * Issue 41: a record stored before the boundary checks with a time in milliseconds (a custom server's)
 * made its row's sort key too large for JavaScript, and every read meeting it failed (polls, the cache
 * search, Charts). Such rows are let go of, with their search entries and watcher links, and so is a
 * head cursor (poll_state) that such a record moved past now. Read again, they are skipped at the boundary.
 */
const BOUNDARY_REPAIR = `
  DELETE FROM message_watchers WHERE message_id IN (SELECT message_id FROM messages WHERE ${UNREADABLE});
  DELETE FROM messages_fts WHERE rowid IN (SELECT rowid FROM messages WHERE ${UNREADABLE});
  DELETE FROM messages_prefix WHERE rowid IN (SELECT rowid FROM messages WHERE ${UNREADABLE});
  DELETE FROM messages WHERE ${UNREADABLE};
  DELETE FROM poll_state WHERE key LIKE 'head:%' AND ${OUT_OF_RANGE("json_extract(json, '$.ts')")};
`;

export const MIGRATIONS: readonly string[] = [
  // 1: everything the first release needs.
  `
  CREATE TABLE settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    json TEXT NOT NULL
  );

  CREATE TABLE watches (
    address TEXT PRIMARY KEY,
    label TEXT NOT NULL DEFAULT '',
    network TEXT NOT NULL,
    notify TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    last_viewed_at INTEGER,
    baseline_done INTEGER NOT NULL DEFAULT 0,
    -- Source timestamp (s) of the oldest message seen while taking the baseline: anything older found
    -- later is history, not news.
    baseline_floor INTEGER
  );

  CREATE TABLE feeds (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    network TEXT NOT NULL,
    filter TEXT NOT NULL,
    notify TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    baseline_done INTEGER NOT NULL DEFAULT 0,
    baseline_floor INTEGER
  );

  -- The latest record of every observed message, plus the state transitions are computed from.
  CREATE TABLE messages (
    rowid INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    network TEXT NOT NULL,
    status TEXT NOT NULL,
    receipt_delivered INTEGER NOT NULL,
    from_addr TEXT NOT NULL,
    to_addr TEXT NOT NULL,
    source_chain TEXT NOT NULL,
    destination_chain TEXT NOT NULL,
    source_ts INTEGER,
    destination_ts INTEGER,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL,
    -- Tracking: 1 while pending or awaiting its receipt.
    tracked INTEGER NOT NULL,
    pending_since INTEGER,
    stuck_fired INTEGER NOT NULL DEFAULT 0,
    -- The raw record last: reading the small columns never touches its overflow pages.
    raw TEXT NOT NULL
  );
  CREATE INDEX messages_tracked ON messages (tracked, network) WHERE tracked = 1;
  CREATE INDEX messages_source_ts ON messages (source_ts DESC);
  CREATE INDEX messages_last_seen ON messages (last_seen_at);
  CREATE INDEX messages_status ON messages (status);

  -- Search over IDs, addresses, chains and hashes, both keyed by the messages rowid: any substring of
  -- 3+ characters (trigram), and prefixes of whole tokens (for 1–2 characters, and for 0x… input,
  -- where a prefix match is the same as a substring match since 'x' never occurs inside hex).
  CREATE VIRTUAL TABLE messages_fts USING fts5 (text, content='', contentless_delete=1, tokenize='trigram');
  CREATE VIRTUAL TABLE messages_prefix USING fts5 (text, content='', contentless_delete=1, tokenize='unicode61', prefix='1 2 3 4', detail='none');

  -- Which watched addresses / feeds (as feed:<id>) a message belongs to.
  CREATE TABLE message_watchers (
    message_id TEXT NOT NULL,
    watcher TEXT NOT NULL,
    added_at INTEGER NOT NULL,
    baseline INTEGER NOT NULL,
    PRIMARY KEY (message_id, watcher)
  ) WITHOUT ROWID;
  CREATE INDEX message_watchers_watcher ON message_watchers (watcher, added_at);

  -- Every transition exactly once: the UNIQUE constraint makes a repeated detection a no-op.
  CREATE TABLE transitions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    at INTEGER NOT NULL,
    network TEXT NOT NULL,
    source_chain TEXT NOT NULL,
    destination_chain TEXT NOT NULL,
    watchers TEXT NOT NULL,
    UNIQUE (message_id, kind)
  );
  CREATE INDEX transitions_at ON transitions (at);

  -- Notifications to show, written in the same transaction as their transition. batch is set when a
  -- drain claims the row (several rows share one batch when coalesced); delivered_at when acknowledged.
  CREATE TABLE outbox (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    transition_id INTEGER NOT NULL UNIQUE,
    message_id TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    batch INTEGER,
    delivered_at INTEGER
  );
  CREATE INDEX outbox_undelivered ON outbox (delivered_at, id) WHERE delivered_at IS NULL;

  -- Poller bookkeeping that must survive restarts (cursors, estimates).
  CREATE TABLE poll_state (
    key TEXT PRIMARY KEY,
    json TEXT NOT NULL
  );
  `,
  // 2: alert channels (Alertmanager, webhooks) deliver outbox rows on their own, each with retries.
  `
  -- One row per configured channel; every outbox row up to cursor has a delivery row (or predates the channel).
  CREATE TABLE alert_channels (
    channel TEXT PRIMARY KEY,
    cursor INTEGER NOT NULL
  );

  CREATE TABLE alert_deliveries (
    outbox_id INTEGER NOT NULL,
    channel TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER NOT NULL DEFAULT 0,
    delivered_at INTEGER,
    last_error TEXT,
    PRIMARY KEY (channel, outbox_id)
  ) WITHOUT ROWID;
  CREATE INDEX alert_deliveries_due ON alert_deliveries (channel, next_attempt_at) WHERE delivered_at IS NULL;
  `,
  // 3: relayers and routes watched (Relayers view, relayer-silent and route-backlog conditions).
  `
  CREATE TABLE relayer_watches (
    address TEXT PRIMARY KEY,
    label TEXT NOT NULL DEFAULT '',
    network TEXT NOT NULL,
    silent_minutes INTEGER NOT NULL,
    pending_minutes INTEGER NOT NULL,
    alert INTEGER NOT NULL,
    created_at INTEGER NOT NULL
  );

  CREATE TABLE route_watches (
    id TEXT PRIMARY KEY,
    label TEXT NOT NULL DEFAULT '',
    network TEXT NOT NULL,
    source_chain TEXT NOT NULL,
    destination_chain TEXT NOT NULL,
    backlog_minutes INTEGER NOT NULL,
    alert INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    UNIQUE (network, source_chain, destination_chain)
  );

  -- The relayer figures read deliveries by destination time (the last 24 h).
  CREATE INDEX messages_destination_ts ON messages (destination_ts) WHERE destination_ts IS NOT NULL;
  `,
  // 4: a tracked message that passes a tracking limit says so (the UI and the metrics show it).
  `
  ALTER TABLE messages ADD COLUMN tracking_ended TEXT;
  ALTER TABLE messages ADD COLUMN tracking_ended_at INTEGER;
  `,
  // 5: relayer-silent and route-backlog episodes, and outbox rows that announce them (no transition).
  `
  -- One row per episode: opened when its condition first holds, resolved_at set when it clears. The
  -- start is taken from the world (the records' times), so replicas reading the same world agree on it.
  CREATE TABLE relayer_episodes (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    network TEXT NOT NULL,
    subject TEXT NOT NULL,
    source_chain TEXT NOT NULL DEFAULT '',
    destination_chain TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    opened_at INTEGER NOT NULL,
    -- 0 when it opened with notifications off: its resolve is not announced either.
    announced INTEGER NOT NULL,
    resolved_at INTEGER,
    UNIQUE (key, started_at)
  );
  CREATE UNIQUE INDEX relayer_episodes_open ON relayer_episodes (key) WHERE resolved_at IS NULL;

  -- The outbox, rebuilt so a row announces either a transition or an episode's fire or resolve.
  CREATE TABLE outbox_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    transition_id INTEGER UNIQUE,
    episode_id INTEGER,
    episode_phase TEXT CHECK (episode_phase IN ('fire', 'resolve')),
    message_id TEXT,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    batch INTEGER,
    delivered_at INTEGER,
    UNIQUE (episode_id, episode_phase),
    CHECK ((transition_id IS NULL) <> (episode_id IS NULL))
  );
  INSERT INTO outbox_next (id, transition_id, message_id, title, body, created_at, batch, delivered_at)
    SELECT id, transition_id, message_id, title, body, created_at, batch, delivered_at FROM outbox;
  DROP TABLE outbox;
  ALTER TABLE outbox_next RENAME TO outbox;
  CREATE INDEX outbox_undelivered ON outbox (delivered_at, id) WHERE delivered_at IS NULL;
  `,
  // 6: the poller reads watched routes itself: a route takes a silent baseline like a feed.
  `
  ALTER TABLE route_watches ADD COLUMN baseline_done INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE route_watches ADD COLUMN baseline_floor INTEGER;
  `,
  // 7: a reorg that undoes a delivery or receipt (own nodes) starts a new round of that message's
  // transitions: the re-delivery fires again, once. Exactly once per (message, kind, round).
  `
  CREATE TABLE transitions_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    message_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    from_status TEXT,
    to_status TEXT NOT NULL,
    at INTEGER NOT NULL,
    network TEXT NOT NULL,
    source_chain TEXT NOT NULL,
    destination_chain TEXT NOT NULL,
    watchers TEXT NOT NULL,
    round INTEGER NOT NULL DEFAULT 0,
    UNIQUE (message_id, kind, round)
  );
  INSERT INTO transitions_next (id, message_id, kind, from_status, to_status, at, network, source_chain, destination_chain, watchers)
    SELECT id, message_id, kind, from_status, to_status, at, network, source_chain, destination_chain, watchers FROM transitions;
  DROP TABLE transitions;
  ALTER TABLE transitions_next RENAME TO transitions;
  CREATE INDEX transitions_at ON transitions (at);
  `,
  // 8: watched relayers' gas balances per chain (issue 31): the last read of each wallet, so a restart
  // keeps the figures and the fuel alert's refill check (a higher balance than the last read).
  `
  CREATE TABLE relayer_fuel (
    relayer TEXT NOT NULL,
    blockchain_id TEXT NOT NULL,
    balance TEXT,
    symbol TEXT NOT NULL DEFAULT '',
    decimals INTEGER NOT NULL DEFAULT 18,
    usd_price REAL,
    read_at INTEGER,
    tried_at INTEGER,
    read_error TEXT,
    PRIMARY KEY (relayer, blockchain_id)
  );
  `,
  // 9: a read of a watched route's history asked after it was watched (readRouteHistory): its baseline
  // is taken again, back to this time (ms) instead of its first read's reach.
  `
  ALTER TABLE route_watches ADD COLUMN history_from INTEGER;
  `,
  // 10: one timeline (issue 41): each fire and resolve of an alert episode as Activity lists it, with its
  // words and severity as said then, kept like the transition log (the episode row may go before it).
  // Episodes announced before this release are taken from their outbox rows.
  `
  CREATE TABLE alert_entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    episode_id INTEGER NOT NULL,
    phase TEXT NOT NULL CHECK (phase IN ('fire', 'resolve')),
    kind TEXT NOT NULL,
    severity TEXT NOT NULL,
    title TEXT NOT NULL,
    body TEXT NOT NULL,
    network TEXT NOT NULL,
    subject TEXT NOT NULL,
    source_chain TEXT NOT NULL DEFAULT '',
    destination_chain TEXT NOT NULL DEFAULT '',
    relayer TEXT NOT NULL DEFAULT '',
    at INTEGER NOT NULL,
    UNIQUE (episode_id, phase)
  );
  CREATE INDEX alert_entries_at ON alert_entries (at);
  INSERT OR IGNORE INTO alert_entries (episode_id, phase, kind, severity, title, body, network, subject, source_chain, destination_chain, at)
    SELECT o.episode_id, o.episode_phase, e.kind, CASE o.episode_phase WHEN 'fire' THEN 'warning' ELSE 'success' END,
      o.title, o.body, e.network, e.subject, e.source_chain, e.destination_chain, o.created_at
    FROM outbox o JOIN relayer_episodes e ON e.id = o.episode_id ORDER BY o.id;
  `,
  // 11: every figure carries the data source it came from (src/shared/sources.ts), so views and alert
  // rules tell the current source's figures from another's. Rows from before are '' until the store
  // adopts them for the source configured at the upgrade (openStore).
  `
  ALTER TABLE messages ADD COLUMN source TEXT NOT NULL DEFAULT '';
  DROP INDEX messages_tracked;
  CREATE INDEX messages_tracked ON messages (source, network) WHERE tracked = 1;
  ALTER TABLE transitions ADD COLUMN source TEXT NOT NULL DEFAULT '';
  ALTER TABLE alert_entries ADD COLUMN source TEXT NOT NULL DEFAULT '';

  CREATE TABLE relayer_episodes_next (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    source TEXT NOT NULL DEFAULT '',
    key TEXT NOT NULL,
    kind TEXT NOT NULL,
    network TEXT NOT NULL,
    subject TEXT NOT NULL,
    source_chain TEXT NOT NULL DEFAULT '',
    destination_chain TEXT NOT NULL DEFAULT '',
    started_at INTEGER NOT NULL,
    opened_at INTEGER NOT NULL,
    announced INTEGER NOT NULL,
    resolved_at INTEGER,
    UNIQUE (source, key, started_at)
  );
  INSERT INTO relayer_episodes_next (id, key, kind, network, subject, source_chain, destination_chain, started_at, opened_at, announced, resolved_at)
    SELECT id, key, kind, network, subject, source_chain, destination_chain, started_at, opened_at, announced, resolved_at FROM relayer_episodes;
  DROP TABLE relayer_episodes;
  ALTER TABLE relayer_episodes_next RENAME TO relayer_episodes;
  CREATE UNIQUE INDEX relayer_episodes_open ON relayer_episodes (source, key) WHERE resolved_at IS NULL;

  CREATE TABLE relayer_fuel_next (
    source TEXT NOT NULL DEFAULT '',
    relayer TEXT NOT NULL,
    blockchain_id TEXT NOT NULL,
    balance TEXT,
    symbol TEXT NOT NULL DEFAULT '',
    decimals INTEGER NOT NULL DEFAULT 18,
    usd_price REAL,
    read_at INTEGER,
    tried_at INTEGER,
    read_error TEXT,
    PRIMARY KEY (source, relayer, blockchain_id)
  );
  INSERT INTO relayer_fuel_next (relayer, blockchain_id, balance, symbol, decimals, usd_price, read_at, tried_at, read_error)
    SELECT relayer, blockchain_id, balance, symbol, decimals, usd_price, read_at, tried_at, read_error FROM relayer_fuel;
  DROP TABLE relayer_fuel;
  ALTER TABLE relayer_fuel_next RENAME TO relayer_fuel;
  `,
  // 12: records stored before the boundary checks that no read survives are let go of (issue 41; above).
  BOUNDARY_REPAIR,
  // 13: a baseline that stopped at its page cap (BASELINE_MAX_PAGES) with open history maybe below says
  // where (s): the Watchlist shows that its history was read back to there only (a stated limit, issue 42).
  `
  ALTER TABLE watches ADD COLUMN history_cut_at INTEGER;
  ALTER TABLE feeds ADD COLUMN history_cut_at INTEGER;
  `,
  // 14: a message carrying receipts back names its originals by route and nonce: looked up one by one
  // (receipt-carriers.ts), where every tracked message was read into memory each cycle before.
  `
  CREATE INDEX messages_open_nonce ON messages (source_chain, destination_chain, CAST(json_extract(raw, '$.messageNonce') AS TEXT)) WHERE tracked = 1;
  `,
  // 15: where each watched relayer's own Prometheus metrics are read (issue 45; docs/relayer-metrics.md).
  `
  CREATE TABLE relayer_metrics_urls (
    address TEXT PRIMARY KEY COLLATE NOCASE,
    url TEXT NOT NULL
  );
  `,
];

/** Where the boundary repair sits in the list: a database at this version has not had it yet. */
export const BOUNDARY_REPAIR_VERSION = MIGRATIONS.indexOf(BOUNDARY_REPAIR);
