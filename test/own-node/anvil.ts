/** Moved to src/devnet (npm run devnet runs the same chains, messenger and relayer): kept here for the tests' imports. */
export * from '../../src/devnet/anvil';
