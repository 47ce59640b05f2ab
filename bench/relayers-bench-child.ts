// The core under the relayers benchmark, in its own process so its memory is measured alone. The parent
// sets this process's clock before each poll; the relayer alerts are seen as the notifications they show.
import { serveParent } from './serve-parent';
import { createBenchCore, serviceSource, type ChildInit } from './bench-core';
import { JumpClock } from './jump-clock';
import { peakRssBytes } from './peak-rss';
import { dropDeliveries } from './relayers-inject';

type Msg =
  | (ChildInit & {
      routes: { source: string; destination: string; label: string }[];
      relayers: { address: string; label: string }[];
      silentMinutes: number;
      pendingMinutes: number;
      /** The key the core sends (null: keyless); its plan stays the app's default (`auto`). */
      apiKey: string | null;
    })
  | { type: 'tick'; now: number }
  /** `injectDrops`: first turn that many delivered route messages back to pending (proves the judge fails on drops). */
  | { type: 'overview'; injectDrops?: number }
  | { type: 'close' };

let peakRss = 0;
let atPeak: NodeJS.MemoryUsage | null = null;
const sampleRss = () => {
  const m = process.memoryUsage();
  if (m.rss > peakRss) [peakRss, atPeak] = [m.rss, m];
};

async function main(): Promise<void> {
  let clock: JumpClock | null = null;
  let core: Awaited<ReturnType<typeof createBenchCore>> | null = null;
  let shown: { title: string; at: number }[] = [];
  let dataDir = '';
  const send = (m: unknown) => process.send?.(m);

  const onMessage = async (m: Msg): Promise<void> => {
    if (m.type === 'init') {
      clock = new JumpClock(m.now);
      dataDir = m.dataDir;
      const c = await createBenchCore(m.dataDir, clock, serviceSource(m.url, m.apiKey));
      core = c;
      const stage = (name: string) => process.env.BENCH_DEBUG && process.stderr.write(`stage ${name} rss ${Math.round(process.memoryUsage().rss / 1048576)}\n`);
      stage('created');
      c.attachNotifier((n) => void shown.push({ title: n.title, at: clock!.now() }));
      await c.start();
      stage('started');
      // The app's default poll interval and plan: the bench sets neither, so the core's own budget is judged.
      for (const r of m.routes) {
        await c.handlers.addRoute({ source: r.source, destination: r.destination, label: r.label, alert: false });
      }
      for (const r of m.relayers)
        await c.handlers.addRelayer({ address: r.address, label: r.label, silentMinutes: m.silentMinutes, pendingMinutes: m.pendingMinutes });
      stage('watching');
      await c.handlers.pollNow(undefined);
      stage('first poll');
      shown = [];
      sampleRss();
      send({ type: 'ready' });
    } else if (m.type === 'tick' && clock && core) {
      await clock.set(m.now);
      const status = await core.handlers.pollNow(undefined);
      sampleRss();
      if (process.env.BENCH_DEBUG) {
        const u = process.memoryUsage();
        process.stderr.write(
          `tick rss ${Math.round(u.rss / 1048576)} heap ${Math.round(u.heapTotal / 1048576)}/${Math.round(u.heapUsed / 1048576)} requests ${status.requestsLastMinute}\n`,
        );
      }
      send({ type: 'polled', shown, status });
      shown = [];
    } else if (m.type === 'overview' && core) {
      if (m.injectDrops) dropDeliveries(dataDir, m.injectDrops, clock!.now());
      send({ type: 'overview', overview: await core.handlers.relayerOverview(undefined) });
    } else if (m.type === 'close') {
      await core?.close();
      if (process.env.BENCH_DEBUG) process.stderr.write(`core memory at its peak ${JSON.stringify(atPeak)}\n`);
      send({ type: 'closed', peakRss: Math.max(peakRss, peakRssBytes()) });
      process.exit(0);
    }
  };
  serveParent(onMessage);
}

void main();
