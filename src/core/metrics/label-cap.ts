/** Keeps a label's distinct values bounded: the first `max` values seen pass, later ones become "other". */
export class LabelCap {
  private seen = new Set<string>();

  constructor(private readonly max: number) {}

  of(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.max) return 'other';
    this.seen.add(value);
    return value;
  }
}
