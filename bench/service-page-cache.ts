/**
 * Reads a file once, start to end, so the OS page cache holds it (bench only). On this VM the host
 * pages out file pages left idle for about a minute (DAMON), so without it each run starts with a
 * different, partly evicted store and times random disk reads (10-60 ms for a 100-record page of a
 * filtered query) instead of the service; with it the figures are those of a store in memory, as on a
 * machine where the service has been in use.
 */
import { closeSync, openSync, readSync } from 'node:fs';

const CHUNK = 4 * 1024 * 1024;

/** Seconds taken to read `path` through. */
export function readThrough(path: string): number {
  const t0 = performance.now();
  const buf = Buffer.allocUnsafe(CHUNK);
  const fd = openSync(path, 'r');
  try {
    let pos = 0;
    for (let n = readSync(fd, buf, 0, CHUNK, pos); n > 0; n = readSync(fd, buf, 0, CHUNK, pos)) pos += n;
  } finally {
    closeSync(fd);
  }
  return (performance.now() - t0) / 1000;
}
