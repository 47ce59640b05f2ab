/**
 * The one way our tests wait for something they cannot await directly (a child process, a socket, a
 * file another process writes): polls `get` until it returns a value other than undefined, null or
 * false, and resolves with that value. A throw from `get` counts as "not yet" and is named in the
 * timeout error. The poll starts at 10 ms and backs off to 200 ms, so quick conditions are seen at
 * once and slow ones (an HTTP query) do not hammer a loaded machine. Plain Node: usable from vitest,
 * Playwright and the benchmarks alike.
 */
export async function waitFor<T>(
  get: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  ms = 10_000,
  what = 'a condition',
): Promise<T> {
  const end = Date.now() + ms;
  let every = 10;
  let last: unknown;
  for (;;) {
    try {
      const v = await get();
      if (v !== undefined && v !== null && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, every));
    every = Math.min(200, every * 2);
  }
}
