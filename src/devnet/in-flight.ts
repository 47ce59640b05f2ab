/**
 * Keeps at most `limit` tasks open at once, as a sender or relayer does that sends several
 * transactions before the first is mined. A task that fails stays counted, so the next `add` or
 * `drain` rejects with its error: nothing fails unseen.
 */
export class InFlight {
  private readonly open = new Set<Promise<void>>();

  constructor(private readonly limit: number) {}

  /** Starts the task once fewer than `limit` are open. */
  async add(task: () => Promise<void>): Promise<void> {
    while (this.open.size >= this.limit) await Promise.race(this.open);
    const p = task();
    this.open.add(p);
    void p.then(
      () => this.open.delete(p),
      () => undefined,
    );
  }

  /** Resolves once every open task has finished. */
  async drain(): Promise<void> {
    await Promise.all(this.open);
  }
}
