/**
 * One monitoring role of `bench:own-node` in a child process of its own (the service, or the core), so
 * each peak RSS is that role's alone, as in the app. Starts the role on `start`, and on `close` stops
 * it and replies with what it reports and its peak RSS (the kernel's high-water mark, sampled too).
 * BENCH_DEBUG=1 prints its memory every 5 s and at close (memory-stage.ts).
 */
import { memoryStage } from './memory-stage';
import { peakRssBytes } from './peak-rss';
import { serveParent } from './serve-parent';

type Msg = { type: 'start' } | { type: 'close' };

export interface Role {
  name: string;
  /** Starts the role; what it resolves with goes to the parent with `ready`. */
  start(m: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Stops it; what it resolves with goes to the parent with `closed`. */
  close(): Promise<Record<string, unknown>>;
}

export function serveRole(role: Role): void {
  let peakRss = 0;
  const sample = () => (peakRss = Math.max(peakRss, process.memoryUsage().rss));
  const rssTimer = setInterval(sample, 500);
  const t0 = Date.now();
  const stage = (when: string) => memoryStage(`${role.name} ${when} ${Math.round((Date.now() - t0) / 1000)} s`);
  const debug = process.env.BENCH_DEBUG ? setInterval(() => stage('at'), 5000) : undefined;
  serveParent(async (m: Msg & Record<string, unknown>) => {
    if (m.type === 'start') {
      process.send?.({ type: 'ready', ...(await role.start(m)) });
    } else {
      sample();
      clearInterval(rssTimer);
      clearInterval(debug);
      stage('closing at');
      const report = await role.close();
      process.send?.({ type: 'closed', ...report, peakRss: Math.max(peakRss, peakRssBytes()) });
      process.exit(0);
    }
  });
}
