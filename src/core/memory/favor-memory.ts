/**
 * Tells V8 to favour memory over speed in this process (`--optimize-for-size`): the monitor runs all
 * day and polls every few seconds, so its heap should stay near its live size rather than grow to
 * several times it before the next full collection. V8 reads this flag each time it sizes the heap, so
 * setting it at run time works (in plain Node and in Electron's main process, where command-line
 * js-flags do not reach), but only from the next sizing on: a heap already grown for a burst keeps its
 * garbage until then, so call it before the burst (the headless watcher does, before its config is
 * read). Calling it again is harmless. Nothing is collected by force. Returns whether V8 accepted it.
 * What it saves is measured in docs/benchmarks.md (the core bench with BENCH_FAVOR_MEMORY=0).
 */
import { setFlagsFromString } from 'node:v8';

export function favorMemoryOverSpeed(): boolean {
  try {
    setFlagsFromString('--optimize-for-size');
    return true;
  } catch {
    return false;
  }
}
