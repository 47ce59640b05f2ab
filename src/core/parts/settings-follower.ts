import type { EventHub } from './events';

/**
 * A part that keeps something in step with the settings (a child process run only for one data
 * source): `follow(running)` runs at the part's start and stop and after every settings change, one run
 * at a time, so switches in quick succession (there and back while a child starts) end in the last state asked.
 */
export function settingsFollower(
  events: EventHub,
  follow: (running: boolean) => Promise<void>,
): { start(): Promise<void>; stop(): Promise<void>; again(): Promise<void> } {
  let running = false;
  let last: Promise<void> = Promise.resolve();
  const queue = (): Promise<void> => {
    const run = () => follow(running);
    return (last = last.then(run, run));
  };
  events.tap((e) => {
    if (running && e.type === 'settings-changed') void queue();
  });
  return {
    /** Follows once more (a start that failed, tried again). */
    again: () => queue(),
    async start() {
      running = true;
      await queue();
    },
    async stop() {
      running = false;
      await queue();
    },
  };
}
