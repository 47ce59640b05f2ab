/** Moved to src/devnet (npm run devnet runs the same chains, messenger and relayer): kept here for the tests' imports. */
export * from '../../src/devnet/chains';

import { startTestChain, type TestChain } from '../../src/devnet/chains';

type ChainOptions = Parameters<typeof startTestChain>[0];

/** Waits for chains started at once; when one does not start, kills those that did and throws its error (no anvil left behind). */
export async function allStartedOrNone<C extends Pick<TestChain, 'node'>>(starting: Promise<C>[]): Promise<C[]> {
  const started = await Promise.allSettled(starting);
  const failed = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(started.flatMap((s) => (s.status === 'fulfilled' ? [s.value.node.kill()] : [])));
    throw failed.reason;
  }
  return started.map((s) => (s as PromiseFulfilledResult<C>).value);
}

/** Starts one chain per ID (or options) at once, or none. */
export async function startTestChains<const Ids extends readonly (number | ChainOptions)[]>(...chains: Ids): Promise<{ [K in keyof Ids]: TestChain }> {
  const started = await allStartedOrNone(chains.map((c) => startTestChain(typeof c === 'number' ? { chainId: c } : c)));
  return started as { [K in keyof Ids]: TestChain };
}
