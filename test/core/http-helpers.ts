import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ManualClock } from '../../src/shared/clock';

export interface Recorded {
  method: string;
  url: URL;
  headers: IncomingMessage['headers'];
  /** ManualClock time when the request arrived. */
  at: number;
}

/** A tiny HTTP server on 127.0.0.1:0 whose answers a test scripts; records every request. */
export async function scriptedServer(
  clock: ManualClock,
  handler: (req: Recorded, n: number) => { status: number; headers?: Record<string, string>; body: unknown } | 'reset',
): Promise<{ url: string; requests: Recorded[]; close: () => Promise<void> }> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const rec: Recorded = { method: req.method ?? 'GET', url: new URL(req.url ?? '/', 'http://127.0.0.1'), headers: req.headers, at: clock.now() };
    requests.push(rec);
    const out = handler(rec, requests.length);
    if (out === 'reset') {
      req.socket.destroy();
      return;
    }
    res.writeHead(out.status, { 'content-type': 'application/json', ...(out.headers ?? {}) });
    res.end(typeof out.body === 'string' ? out.body : JSON.stringify(out.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Awaits a promise while moving a ManualClock forward in small steps (retries and waits sleep on it). */
export async function pump<T>(clock: ManualClock, p: Promise<T>, stepMs = 100, maxMs = 600_000): Promise<T> {
  let done = false;
  const wrapped = p.finally(() => {
    done = true;
  });
  let moved = 0;
  while (!done && moved < maxMs) {
    await new Promise((r) => setImmediate(r));
    if (done) break;
    await clock.advance(stepMs);
    moved += stepMs;
  }
  return wrapped;
}

/**
 * A ManualClock on which waiting makes time pass: a sleep moves the clock to its end at once (firing
 * every timer due on the way, such as the simulator's). Tests of one sequential poller stay exact and
 * never wait in real time for a backoff or a Retry-After.
 */
export class JumpClock extends ManualClock {
  override sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const p = super.sleep(ms, signal);
    void this.advance(Math.max(0, ms));
    return p;
  }
}
