/**
 * At most one run of `task` in flight: calls made while it runs collapse into one more run after it
 * (so the latest state is fetched once, however many events asked for it meanwhile).
 */
export function coalesce<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let again: Promise<T> | null = null;
  return function run(): Promise<T> {
    if (!running) {
      running = task().finally(() => {
        running = null;
      });
      return running;
    }
    again ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        again = null;
        return run();
      });
    return again;
  };
}
