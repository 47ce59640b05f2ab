/**
 * Tells V8 to favour memory over speed in this process: the monitor runs all day and polls every few
 * seconds, so its heap should stay near its live size rather than grow to several times it before the
 * next collection.
 * - `--optimize-for-size`: smaller growth steps of the old generation.
 * - `--semi-space-growth-factor=1`: the young generation keeps its first size (2 MB) instead of
 *   doubling up to 32 MB under a burst of reads (a poll cycle's pages): a busy watch then costs a few
 *   more quick scavenges, not up to 30 MB more resident memory that is not given back.
 * V8 reads both each time it sizes the heap, so setting them at run time works (in plain Node and in
 * Electron's main process, where command-line js-flags do not reach; `--max-semi-space-size` is read
 * once at start and would not), but only from the next sizing on: call it before the burst (the
 * headless watcher does, before its config is read). Calling it again is harmless. Nothing is
 * collected by force. Returns whether V8 accepted them. What it saves is measured in
 * docs/benchmarks.md (the core bench with BENCH_FAVOR_MEMORY=0).
 */
import { setFlagsFromString } from 'node:v8';

export function favorMemoryOverSpeed(): boolean {
  try {
    setFlagsFromString('--optimize-for-size');
    setFlagsFromString('--semi-space-growth-factor=1');
    return true;
  } catch {
    return false;
  }
}
