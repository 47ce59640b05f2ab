/**
 * IDs remembered in arrival order, at most `max` of them (the oldest are forgotten first), so a
 * session that runs for weeks holds a bounded set. A group added together is always kept whole.
 */
export class RecentIds {
  private readonly ids = new Set<number>();

  constructor(private readonly max: number) {}

  has(id: number): boolean {
    return this.ids.has(id);
  }

  get size(): number {
    return this.ids.size;
  }

  /** Remembers one event's IDs as the newest; then forgets the oldest others beyond the bound. */
  addAll(group: Iterable<number>): void {
    let count = 0;
    for (const id of group) {
      this.ids.delete(id); // re-adding moves it to the newest end
      this.ids.add(id);
      count++;
    }
    const keep = Math.max(this.max, count);
    // A Set iterates in insertion order: the oldest first, the group last.
    for (const id of this.ids) {
      if (this.ids.size <= keep) break;
      this.ids.delete(id);
    }
  }
}
