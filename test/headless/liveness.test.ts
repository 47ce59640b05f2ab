/**
 * A watch is live once its silent baseline is done: before that its changes do not alert. The watcher
 * says when each one goes live (a callback the CLI logs), resolves `allLive` only then, and exports
 * both as gauges. The data source fails every request at first, so the baselines cannot finish.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfigFile } from '../../src/headless/config-file';
import { describeWatch, type LiveEvent } from '../../src/headless/watch-liveness';
import { startHeadless } from '../../src/headless/watcher';
import { startLocalService } from '../../src/local-service';
import { baseConfig, pollNow, tempDir, WATCHED, writeConfig, type Service } from './rig';

const OTHER = '0x253b2784c75e510dD0fF1da844684a1aC0aa5fcf';
const C_CHAIN = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';

let svc: Service;
beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 7 });
});
afterAll(async () => {
  await svc.close();
});

const gauges = async (url: string) =>
  (await (await fetch(url)).text())
    .split('\n')
    .filter((l) => /^teleporter_watch_(watch_live|watchers_baselining)\b/.test(l))
    .sort();

describe('headless watch liveness', () => {
  it('says when each watch and feed goes live, once, and is ready only when all are', async () => {
    svc.setFaults('5xx:1');
    const dir = tempDir('tw-live-');
    const config = baseConfig(svc.url, {
      watches: [{ address: WATCHED, label: 'treasury' }, { address: OTHER }],
      feeds: [{ name: 'from-c-chain', filter: { sourceBlockchainId: C_CHAIN } }],
    });
    const lives: LiveEvent[] = [];
    const w = await startHeadless({
      loaded: loadConfigFile(writeConfig(dir, config)),
      keychainService: `tw-live-${process.pid}`,
      metricsPort: 0,
      onWatchLive: (e) => lives.push(e),
    });
    let ready = false;
    void w.liveness.allLive.then(() => (ready = true));
    try {
      expect(
        w.liveness
          .states()
          .map((s) => [s.kind, s.label, s.live])
          .sort(),
      ).toEqual([
        ['address', '', false],
        ['address', 'treasury', false],
        ['feed', 'from-c-chain', false],
      ]);
      expect(await gauges(w.metrics!.url)).toEqual([
        'teleporter_watch_watch_live{watch="from-c-chain"} 0',
        'teleporter_watch_watch_live{watch="treasury"} 0',
        'teleporter_watch_watch_live{watch="unlabelled"} 0',
        'teleporter_watch_watchers_baselining 3',
      ]);
      expect(lives).toEqual([]);
      expect(ready).toBe(false);

      svc.setFaults(null);
      await pollNow(w);
      await w.liveness.allLive;
      expect(lives.map((e) => describeWatch(e.watch)).sort()).toEqual([OTHER, 'feed "from-c-chain"', `treasury (${WATCHED})`].sort());
      expect(lives.every((e) => e.baselineMs >= 0)).toBe(true);
      expect(await gauges(w.metrics!.url)).toEqual([
        'teleporter_watch_watch_live{watch="from-c-chain"} 1',
        'teleporter_watch_watch_live{watch="treasury"} 1',
        'teleporter_watch_watch_live{watch="unlabelled"} 1',
        'teleporter_watch_watchers_baselining 0',
      ]);
      // Going live is said once.
      await pollNow(w);
      expect(lives).toHaveLength(3);
    } finally {
      svc.setFaults(null);
      await w.close();
    }
    // A restart finds them live: nothing to announce, ready at once.
    const again: LiveEvent[] = [];
    const w2 = await startHeadless({
      loaded: loadConfigFile(writeConfig(dir, config)),
      keychainService: `tw-live-${process.pid}`,
      metricsPort: 0,
      onWatchLive: (e) => again.push(e),
    });
    try {
      await w2.liveness.allLive;
      expect(w2.liveness.states().every((s) => s.live)).toBe(true);
      expect(again).toEqual([]);
    } finally {
      await w2.close();
    }
  }, 60_000);
});
