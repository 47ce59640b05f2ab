/** What a chain's node sent that was skipped is said once per chain and reason in the core's log (issue 41), never once per item. */
import { describe, expect, it } from 'vitest';
import { OwnNodeSkipNews } from '../../src/core/own-nodes/skip-news';
import type { OwnNodeStatus } from '../../src/shared/own-nodes';

const chain = (name: string, skipped: OwnNodeStatus['skipped']): OwnNodeStatus => ({
  blockchainId: `id-${name}`,
  name,
  host: '10.0.0.5:9650',
  state: 'ok',
  message: '',
  evmChainId: '43114',
  head: 10,
  indexedTo: 10,
  span: 2000,
  rpcCalls: 3,
  reorgs: 0,
  lastScanAt: null,
  skipped,
});

describe('OwnNodeSkipNews', () => {
  it('says each chain and reason once, with how many so far; later counts of it are not news', () => {
    const news = new OwnNodeSkipNews();
    expect(news.lines([chain('Alpha', {}), chain('Beta', {})])).toEqual([]);
    expect(news.lines([chain('Alpha', { timestamp_out_of_range: 2 }), chain('Beta', {})])).toEqual([
      'own node Alpha (10.0.0.5:9650): skipped what the node sent: timestamp out of range (2 so far); the chain reads on. Later ones are only counted (status bar, teleporter_watch_own_node_skipped).',
    ]);
    expect(news.lines([chain('Alpha', { timestamp_out_of_range: 40 }), chain('Beta', {})])).toEqual([]);
    const next = news.lines([chain('Alpha', { timestamp_out_of_range: 41, bad_hex: 1 }), chain('Beta', { timestamp_out_of_range: 1 })]);
    expect(next).toHaveLength(2);
    expect(next[0]).toMatch(/^own node Alpha .*bad hex \(1 so far\)/);
    expect(next[1]).toMatch(/^own node Beta .*timestamp out of range \(1 so far\)/);
  });
});
