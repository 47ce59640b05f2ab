/**
 * `npm run bench:search`: the core's local-cache search (searchCache) over 100,000 cached messages,
 * every prefix of typical searches typed one key at a time. Prints ONE JSON line with p50/p95/max in ms.
 */
import { performance } from 'node:perf_hooks';
import { engineRig, tempDir } from '../test/core/helpers';
import { fillCache } from '../test/core/cache-fixture';

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 100_000);

const tmp = tempDir('tw-bench-search-');
const rig = engineRig(tmp.dir);
try {
  const { people, probe } = fillCache(rig.store, MESSAGES);
  const typed = (s: string) => Array.from({ length: s.length }, (_, i) => s.slice(0, i + 1));
  const queries = [...typed(probe.messageId.slice(0, 16)), ...typed(people[42]!.slice(0, 16)), ...typed('dispatch'), ...typed('beam'), ...typed('0xabc')];
  for (const text of queries.slice(0, 10)) rig.store.search.find({ text, limit: 50 }); // warm-up
  const times: number[] = [];
  for (const text of queries) {
    const t0 = performance.now();
    rig.store.search.find({ text, limit: 50 });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const at = (p: number) => Math.round(times[Math.min(times.length - 1, Math.ceil(p * times.length) - 1)]! * 100) / 100;
  console.log(JSON.stringify({ bench: 'cache-search', messages: MESSAGES, keystrokes: times.length, ms: { p50: at(0.5), p95: at(0.95), max: at(1) } }));
} finally {
  rig.close();
  tmp.cleanup();
}
