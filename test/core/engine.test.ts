import { describe, expect, it } from 'vitest';
import { reopenRig, watchingRigPerTest } from './rig-per-test';
import { apiRecord, BEAM, C_CHAIN, engineRig, msg, randomAddress, randomId, tempDir, type EngineRig } from './helpers';
import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';

const kinds = (rig: EngineRig) =>
  rig.store.transitions
    .list({ limit: 500 })
    .map((t) => `${t.messageId.slice(0, 6)}:${t.kind}`)
    .sort();

describe('transition engine', () => {
  const me = randomAddress();
  const rig = watchingRigPerTest(me);

  it('fires new, left_pending and receipt_delivered once each as a message progresses', () => {
    const id = randomId();
    const base = { id, from: me, ts: 1_767_225_600 };
    const t1 = rig.engine.observe([msg({ ...base, status: 'pending' })], 'mainnet');
    expect(t1.map((t) => t.kind)).toEqual(['new']);
    expect(t1[0]?.watchers).toEqual([{ kind: 'address', address: me }]);
    expect(rig.engine.observe([msg({ ...base, status: 'pending' })], 'mainnet')).toEqual([]);
    const t2 = rig.engine.observe([msg({ ...base, status: 'delivered' })], 'mainnet');
    expect(t2.map((t) => [t.kind, t.fromStatus, t.toStatus])).toEqual([['left_pending', 'pending', 'delivered']]);
    const t3 = rig.engine.observe([msg({ ...base, status: 'delivered', receiptDelivered: true })], 'mainnet');
    expect(t3.map((t) => t.kind)).toEqual(['receipt_delivered']);
    // Repeated pages change nothing.
    for (let i = 0; i < 3; i++) expect(rig.engine.observe([msg({ ...base, status: 'delivered', receiptDelivered: true })], 'mainnet')).toEqual([]);
    expect(kinds(rig)).toEqual([`${id.slice(0, 6)}:left_pending`, `${id.slice(0, 6)}:new`, `${id.slice(0, 6)}:receipt_delivered`].sort());
    expect(rig.store.messages.get(id)?.message.status).toBe('delivered');
  });

  it("stores each message with the source that showed it, and drops a page a cycle read after a switch (never the new source's)", () => {
    const id = randomId();
    rig.engine.readingFrom('local');
    rig.engine.observe([msg({ id, from: me, status: 'pending', ts: 1_767_225_600 })], 'mainnet');
    expect(rig.store.messages.get(id)?.source).toBe('local');
    // The user switches while the cycle still reads the demo: what it reads now belongs to neither.
    rig.settings.dataSource = { kind: 'custom', baseUrl: 'http://127.0.0.1:9' };
    const late = randomId();
    expect(rig.engine.observe([msg({ id: late, from: me, status: 'pending', ts: 1_767_225_601 })], 'mainnet')).toEqual([]);
    expect(rig.store.messages.get(late)).toBeNull();
    rig.engine.readingFrom(null);
    rig.engine.observe([msg({ id: late, from: me, status: 'pending', ts: 1_767_225_601 })], 'mainnet');
    expect(rig.store.messages.get(late)?.source).toBe('custom:http://127.0.0.1:9');
  });

  it('never goes backwards on a stale (out-of-order) page', () => {
    const id = randomId();
    rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true })], 'mainnet');
    // An older copy arrives late: still pending, no receipt.
    expect(rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet')).toEqual([]);
    expect(rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: false })], 'mainnet')).toEqual([]);
    const cached = rig.store.messages.get(id);
    expect(cached?.message.status).toBe('delivered');
    expect((cached?.message as { receiptDelivered: boolean }).receiptDelivered).toBe(true);
    // And the new one arriving again does not repeat either.
    expect(rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true })], 'mainnet')).toEqual([]);
    expect(rig.store.transitions.list({}).length).toBe(3);
  });

  it('from your own nodes, a move back on a chain they read is a reorg: undone, followed again, the re-delivery fires once more', () => {
    const ownNodes = (...chains: string[]) => {
      rig.settings.dataSource = {
        kind: 'ownNodes',
        ownNodes: {
          chains: chains.map((blockchainId) => ({ rpcUrl: 'http://127.0.0.1:9', blockchainId, name: `n-${blockchainId.slice(0, 4)}` })),
          confirmations: 1,
          pollIntervalMs: 2000,
          requestTimeoutMs: 15000,
        },
      };
    };
    const id = randomId();
    ownNodes(C_CHAIN, BEAM);
    rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true })], 'mainnet');
    const undone = rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    expect(undone.map((t) => [t.kind, t.fromStatus, t.toStatus])).toEqual([
      ['delivery_undone', 'delivered', 'pending'],
      ['receipt_undone', 'delivered', 'pending'],
    ]);
    expect(rig.store.messages.get(id)?.message.status).toBe('pending');
    expect(rig.store.messages.state(id)?.tracked).toBe(true);
    expect(rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet')).toEqual([]);
    expect(rig.engine.observe([msg({ id, from: me, status: 'delivered' })], 'mainnet').map((t) => t.kind)).toEqual(['left_pending']);
    expect(rig.engine.observe([msg({ id, from: me, status: 'delivered' })], 'mainnet')).toEqual([]);

    // Own nodes that do not read the destination cannot have seen the delivery go: an older copy, ignored.
    const other = randomId();
    ownNodes(C_CHAIN);
    rig.engine.observe([msg({ id: other, from: me, status: 'delivered' })], 'mainnet');
    expect(rig.engine.observe([msg({ id: other, from: me, status: 'pending' })], 'mainnet')).toEqual([]);
    expect(rig.store.messages.get(other)?.message.status).toBe('delivered');
  });

  it('a message first seen already delivered fires new and left_pending together', () => {
    const t = rig.engine.observe([msg({ to: me, status: 'delivered_source_not_indexed' })], 'mainnet');
    expect(t.map((x) => [x.kind, x.fromStatus, x.toStatus])).toEqual([
      ['new', null, 'delivered_source_not_indexed'],
      ['left_pending', null, 'delivered_source_not_indexed'],
    ]);
  });

  it('keeps unknown statuses and extra fields, and treats them as having left pending', () => {
    const id = randomId();
    rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    const odd = parseMessage(apiRecord({ id, from: me, status: 'reorged', extra: { brandNewField: { a: 1 } } })) as TeleporterMessage;
    expect(odd.status).toBe('unknown');
    const t = rig.engine.observe([odd], 'mainnet');
    expect(t.map((x) => [x.kind, x.toStatus])).toEqual([['left_pending', 'reorged']]);
    const cached = rig.store.messages.get(id);
    expect(cached?.message.status).toBe('unknown');
    expect((cached?.message as { raw: Record<string, unknown> }).raw.brandNewField).toEqual({ a: 1 });
  });

  it('takes a silent baseline and tracks its open messages afterwards', () => {
    const other = randomAddress();
    rig.watch(other, { baselineDone: false });
    const open = randomId();
    // Sent a minute before the watch was added (one sent since would be news for it, even in its baseline).
    const before = Math.floor(rig.clock.now() / 1000) - 60;
    const history = [
      msg({ id: open, from: other, status: 'pending', ts: before }),
      msg({ from: other, status: 'delivered', receiptDelivered: true, ts: before }),
    ];
    expect(rig.engine.observe(history, 'mainnet', { baselineFor: new Set([other]) })).toEqual([]);
    rig.store.watches.finishBaseline(other, null);
    const t = rig.engine.observe([msg({ id: open, from: other, status: 'delivered', ts: before })], 'mainnet');
    expect(t.map((x) => x.kind)).toEqual(['left_pending']);
    expect(rig.store.watches.getWatch(other)?.unread).toBe(0);
  });

  it('a message sent since the watch was added is news, even met first by its baseline; one sent before is history, its later changes news', () => {
    const other = randomAddress();
    rig.watch(other, { baselineDone: false });
    const added = Math.floor(rig.clock.now() / 1000);
    const [sameSecond, later, before] = [randomId(), randomId(), randomId()];
    const baseline = { baselineFor: new Set([other]) };
    const seen = rig.engine.observe(
      [
        msg({ id: later, from: other, status: 'delivered', ts: added + 5 }),
        msg({ id: sameSecond, to: other, status: 'pending', ts: added }),
        msg({ id: before, from: other, status: 'pending', ts: added - 1 }),
      ],
      'mainnet',
      baseline,
    );
    expect(seen.map((t) => [t.messageId, t.kind])).toEqual([
      [later, 'new'],
      [later, 'left_pending'],
      [sameSecond, 'new'],
    ]);
    // Still baselining: the one met as history moves on, and that is news (it happened after the add).
    const moved = rig.engine.observe([msg({ id: before, from: other, status: 'delivered', ts: added - 1 })], 'mainnet', baseline);
    expect(moved.map((t) => [t.messageId, t.kind])).toEqual([[before, 'left_pending']]);
  });

  it('a message sent before the watch was added, first met delivered after it, fires its delivery (and receipt) by the destination time, not `new`', () => {
    const other = randomAddress();
    rig.watch(other, { baselineDone: false });
    const added = Math.floor(rig.clock.now() / 1000);
    const baseline = { baselineFor: new Set([other]) };
    // apiRecord stamps the destination 10 s after the source.
    const [since, long] = [randomId(), randomId()];
    const seen = rig.engine.observe(
      [
        msg({ id: since, from: other, status: 'delivered', receiptDelivered: true, ts: added - 5 }),
        msg({ id: long, from: other, status: 'delivered', receiptDelivered: true, ts: added - 600 }),
      ],
      'mainnet',
      baseline,
    );
    expect(seen.map((t) => [t.messageId, t.kind])).toEqual([
      [since, 'left_pending'],
      [since, 'receipt_delivered'],
    ]);
  });

  it('ignores messages of nobody and survives a restart without repeating', () => {
    expect(rig.engine.observe([msg({ status: 'pending' })], 'mainnet')).toEqual([]);
    expect(rig.store.search.find({}).total).toBe(0);
    const id = randomId();
    rig.engine.observe([msg({ id, to: me, status: 'pending' })], 'mainnet');
    reopenRig(rig);
    expect(rig.engine.observe([msg({ id, to: me, status: 'pending' })], 'mainnet')).toEqual([]);
    expect(rig.engine.observe([msg({ id, to: me, status: 'delivered' })], 'mainnet').map((t) => t.kind)).toEqual(['left_pending']);
  });

  it('fires stuck once after the threshold, measured from the source transaction', async () => {
    rig.settings.stuckThresholdMinutes = 30;
    const id = randomId();
    const ts = Math.floor(rig.clock.now() / 1000);
    rig.engine.observe([msg({ id, from: me, status: 'pending', ts })], 'mainnet');
    await rig.clock.advance(29 * 60_000);
    expect(rig.engine.sweep()).toEqual([]);
    await rig.clock.advance(60_000);
    expect(rig.engine.sweep().map((t) => t.kind)).toEqual(['stuck']);
    await rig.clock.advance(60 * 60_000);
    expect(rig.engine.sweep()).toEqual([]);
  });

  it('history a late baseline meets past the threshold fires `stuck` when that moment came after the watch began; not when before', async () => {
    rig.settings.stuckThresholdMinutes = 30;
    const other = randomAddress();
    rig.watch(other, { baselineDone: false });
    const addedS = Math.floor(rig.clock.now() / 1000);
    // Its baseline meets them 20 min after the watch was added (a budget short for a busy list).
    await rig.clock.advance(20 * 60_000);
    const crossedSince = randomId(); // sent 15 min before the watch: stuck 15 min after it
    const stuckBefore = randomId(); // sent 40 min before: stuck 10 min before the watch began
    const history = [
      msg({ id: crossedSince, from: other, status: 'pending', ts: addedS - 15 * 60 }),
      msg({ id: stuckBefore, from: other, status: 'pending', ts: addedS - 40 * 60 }),
    ];
    expect(rig.engine.observe(history, 'mainnet', { baselineFor: new Set([other]) })).toEqual([]);
    rig.store.watches.finishBaseline(other, null);
    const fired = rig.engine.sweep();
    expect(fired.map((t) => [t.messageId, t.kind])).toEqual([[crossedSince, 'stuck']]);
    await rig.clock.advance(60 * 60_000);
    expect(rig.engine.sweep()).toEqual([]);
  });

  it('writes notifications for the kinds a watch asked for, in the same transaction', () => {
    rig.store.watches.updateWatch(me, { notify: { new: false, left_pending: true, receipt_delivered: false, stuck: true } });
    const id = randomId();
    rig.engine.observe([msg({ id, from: me, status: 'pending' })], 'mainnet');
    rig.engine.observe([msg({ id, from: me, status: 'delivered', receiptDelivered: true })], 'mainnet');
    const batches = rig.store.outbox.claim();
    expect(batches.map((b) => b.title)).toEqual(['Message delivered']);
    rig.store.outbox.ack(batches[0]!.id, rig.clock.now());
    expect(rig.store.outbox.claim()).toEqual([]);
  });
});

describe('stats over the transition log', () => {
  it('buckets transitions by time and reports delivery latency and status counts', async () => {
    const { computeStats } = await import('../../src/core/store');
    const tmp = tempDir();
    const rig = engineRig(tmp.dir);
    const me = randomAddress();
    rig.watch(me);
    const ts = Math.floor(rig.clock.now() / 1000);
    rig.engine.observe([msg({ from: me, status: 'pending', ts }), msg({ from: me, status: 'pending', ts })], 'mainnet');
    await rig.clock.advance(2 * 3600_000);
    const id = randomId();
    rig.engine.observe([msg({ id, from: me, status: 'delivered', ts: Math.floor(rig.clock.now() / 1000) })], 'mainnet');
    const s = computeStats(rig.store.db, rig.clock.now(), 6, 'local');
    expect(s.bucketMs).toBe(15 * 60_000);
    const sum = (k: 'new' | 'left_pending') => s.buckets.reduce((n, b) => n + b[k], 0);
    expect(sum('new')).toBe(3);
    expect(sum('left_pending')).toBe(1);
    const last = s.buckets[s.buckets.length - 1]!;
    expect(last.new).toBe(1);
    expect(s.deliveryLatency).toEqual({ p50: 10, p95: 10, count: 1 });
    expect(s.byStatus).toEqual({ delivered: 1, pending: 2 });
    expect(computeStats(rig.store.db, rig.clock.now(), 1, 'local').byStatus).toEqual({ delivered: 1 });
    rig.close();
    tmp.cleanup();
  });
});
