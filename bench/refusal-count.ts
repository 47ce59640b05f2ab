/**
 * The 429 answers the service gave, per caller kind, read from its request log (`logRequests`): the
 * `refused` that judgeSpend (bench/judge.ts) takes. Refused calls are not charged, so ServiceCount never
 * sees them. The log names no key: a bench judges at most one keyed caller by it.
 */
const REQUEST_LINE = /^\S+ \S+ (\d{3}) \S+ (key|anonymous)$/;

export class RefusalCount {
  private readonly refused = { key: 0, anonymous: 0 };

  /** `other`: where the service's other log lines go (default: dropped). */
  constructor(private readonly other?: (line: string) => void) {}

  /** Give this to the service as its `log` (with `logRequests: true`). */
  readonly onLine = (line: string): void => {
    const m = REQUEST_LINE.exec(line);
    if (!m) return void this.other?.(line);
    if (m[1] === '429') this.refused[m[2] as 'key' | 'anonymous']++;
  };

  /** 429 answers to a caller as ServiceCount names it: `anonymous`, else a key. */
  of(caller: string): number {
    return caller === 'anonymous' ? this.refused.anonymous : this.refused.key;
  }
}
