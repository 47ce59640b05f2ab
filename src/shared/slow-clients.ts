/**
 * How long our HTTP servers (web host, /metrics, the local service) wait for a client's request. Node
 * enforces headersTimeout and requestTimeout only when it sweeps its connections, every 30 s by
 * default: 200 sockets sending their headers a byte at a time then stayed open for up to 40 s (and a
 * slow body for up to 90 s). Sweeping every second makes the limits the ones written here.
 */
export const SLOW_CLIENT_LIMITS = {
  /** The request line and headers must arrive within this. */
  headersTimeoutMs: 10_000,
  /** The whole request (headers and body) must arrive within this. */
  requestTimeoutMs: 30_000,
  /** Passed to createServer as connectionsCheckingInterval. */
  checkEveryMs: 1_000,
} as const;

/** createServer's options for these limits (Node applies the sweep interval only at creation). */
export const slowClientServerOptions = (limits = SLOW_CLIENT_LIMITS) => ({ connectionsCheckingInterval: limits.checkEveryMs });

/** Sets the limits on a created server. */
export function limitSlowClients(server: { headersTimeout: number; requestTimeout: number }, limits = SLOW_CLIENT_LIMITS): void {
  server.headersTimeout = limits.headersTimeoutMs;
  server.requestTimeout = limits.requestTimeoutMs;
}
