/**
 * Reads the store file through once, in the background, so the OS page cache holds it: the first pages
 * a client asks for (and any filter's index ranges) are then memory reads, not random disk reads.
 * Asynchronous (libuv's thread pool), so requests are served while it runs; stops when aborted.
 */
import { open } from 'node:fs/promises';

const CHUNK = 4 * 1024 * 1024;

interface WarmResult {
  bytes: number;
  ms: number;
}

export async function warmFile(path: string, signal?: AbortSignal): Promise<WarmResult> {
  const t0 = performance.now();
  const file = await open(path, 'r');
  let bytes = 0;
  try {
    const buf = Buffer.allocUnsafe(CHUNK);
    for (;;) {
      if (signal?.aborted) break;
      const { bytesRead } = await file.read(buf, 0, CHUNK, bytes);
      if (bytesRead === 0) break;
      bytes += bytesRead;
    }
  } finally {
    await file.close();
  }
  return { bytes, ms: performance.now() - t0 };
}
