import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMonitorCore } from '../../src/core';

const A = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const B = '0x8db97C7cEcE249c2b98bDC0226Cc4C2A57BF52FC';

describe('addWatches (bulk watchlist import)', () => {
  it('adds many watches at once, validates like addWatch, and leaves watched ones alone', async () => {
    const core = await createMonitorCore({
      dataDir: mkdtempSync(join(tmpdir(), 'tw-import-')),
      shell: 'web',
      version: 'test',
      autoPoll: false,
      keychainService: `tw-import-${process.pid}`,
      localService: { kind: 'url', url: 'http://127.0.0.1:9' },
    });
    try {
      const events: string[] = [];
      core.onEvent((e) => events.push(e.type));
      expect(
        await core.addWatches([
          { address: A.toLowerCase(), label: ' ops ' },
          { address: B, network: 'fuji', notify: { new: true } },
        ]),
      ).toBe(2);
      expect(events.filter((t) => t === 'watchlist-changed')).toHaveLength(1);
      const list = await core.handlers.listWatches(undefined);
      expect(list.map((w) => [w.address, w.label, w.network, w.notify.new])).toEqual([
        [A, 'ops', 'mainnet', false],
        [B, '', 'fuji', true],
      ]);
      expect(await core.addWatches([{ address: A }])).toBe(0);
      await expect(core.addWatches([{ address: '0x123' }])).rejects.toThrow(/Watch 0\.address: /);
      await expect(core.addWatches([{ address: A, extra: 1 }])).rejects.toThrow(/Watch/);
      expect(await core.handlers.listWatches(undefined)).toHaveLength(2);
    } finally {
      await core.close();
    }
  });
});
