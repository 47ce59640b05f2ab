/**
 * The simulated world of the embedded demo: one seed for the desktop app, the web host, the headless
 * watcher's `dataSource: local` and `npm run service`, so a busy address or relayer seen in one of them
 * (and copied into deploy/demo.yaml) has the same traffic in the others. The addresses depend on the
 * seed alone; a data folder's demo store keeps the seed it was first filled with.
 */
export const DEMO_SEED = 1;
/** New simulated messages per second in the demo. */
export const DEMO_RATE = 2;
