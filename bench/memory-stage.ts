/**
 * BENCH_DEBUG: one line per stage of a bench child with its memory, so a peak can be placed and split
 * into the JS heap (heapTotal, heapUsed, and V8's spaces of 1 MB or more) and the rest (code, SQLite,
 * buffers: rss minus heapTotal). peak is the kernel's high-water mark of the child's own memory
 * (peak-rss.ts). Prints nothing otherwise.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { peakRssBytes } from './peak-rss';

const mb = (n: number) => (n / 1048576).toFixed(1);

export function memoryStage(name: string): void {
  if (!process.env.BENCH_DEBUG) return;
  const m = process.memoryUsage();
  const spaces = getHeapSpaceStatistics()
    .filter((s) => s.space_size >= 1048576)
    .map((s) => `${s.space_name.replace(/_space$/, '')} ${mb(s.space_size)}`)
    .join(', ');
  console.error(
    `child stage ${name}: rss ${mb(m.rss)}, peak ${mb(peakRssBytes())}, heapTotal ${mb(m.heapTotal)} (${spaces}), heapUsed ${mb(m.heapUsed)}, external ${mb(m.external)}, arrayBuffers ${mb(m.arrayBuffers)} MB`,
  );
}
