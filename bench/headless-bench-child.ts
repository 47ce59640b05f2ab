// The headless watcher under benchmark, in its own process so its memory is measured alone. The parent
// drives simulated time over IPC: every `tick` sets this process's clock and polls once, then waits
// until the alert outbox has been delivered to the parent's receiver.
import { serveParent } from './serve-parent';
import { loadConfigFile } from '../src/headless/config-file';
import { startHeadless, type HeadlessWatcher } from '../src/headless/watcher';
import { JumpClock } from './jump-clock';
import { waitFor } from '../test/support/wait-for';
import { memoryStage } from './memory-stage';
import { peakRssBytes } from './peak-rss';

type Msg = { type: 'init'; configFile: string; now: number } | { type: 'tick'; now: number } | { type: 'close' };

let peakRss = 0;
let ticks = 0;
const sampleRss = () => {
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};

async function alertsPending(w: HeadlessWatcher): Promise<number> {
  const g = w.core.metrics?.registry.getSingleMetric('teleporter_watch_alerts_pending');
  const v = await g?.get();
  return v?.values[0]?.value ?? 0;
}

async function main(): Promise<void> {
  let clock: JumpClock | null = null;
  let w: HeadlessWatcher | null = null;
  const send = (m: unknown) => process.send?.(m);

  const onMessage = async (m: Msg): Promise<void> => {
    if (m.type === 'init') {
      clock = new JumpClock(m.now);
      const t0 = Date.now();
      const loaded = loadConfigFile(m.configFile);
      memoryStage('config loaded');
      w = await startHeadless({ loaded, clock, autoPoll: false, keychainService: 'tw-headless-bench', version: 'bench' });
      const syncMs = Date.now() - t0;
      memoryStage('started and watchlist synced');
      for (let i = 0; i < 40; i++) {
        const r = await w.core.invoke('listWatches', undefined);
        if (r.ok && (r.value as { baselinePending: boolean }[]).every((x) => !x.baselinePending)) break;
        await w.core.invoke('pollNow', undefined);
        memoryStage(`baseline cycle ${i + 1}`);
      }
      sampleRss();
      send({ type: 'ready', syncMs });
    } else if (m.type === 'tick' && clock && w) {
      await clock.set(m.now);
      const watcher = w;
      await watcher.core.invoke('pollNow', undefined);
      await waitFor(async () => (await alertsPending(watcher)) === 0, 60_000, 'the alerts of this cycle to be delivered');
      const before = peakRss;
      sampleRss();
      if (peakRss > before) memoryStage(`new sampled peak after cycle ${ticks + 1}`);
      ticks++;
      send({ type: 'polled' });
    } else if (m.type === 'close') {
      memoryStage(`after ${ticks} cycles`);
      await w?.close();
      send({ type: 'closed', peakRss: Math.max(peakRss, peakRssBytes()) });
      process.exit(0);
    }
  };
  serveParent(onMessage);
  memoryStage('child loaded');
}

void main();
