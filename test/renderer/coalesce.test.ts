import { describe, expect, it } from 'vitest';
import { coalesce } from '../../src/renderer/src/logic/coalesce';

describe('coalesce', () => {
  it('runs one task at a time; asks made meanwhile become exactly one follow-up run', async () => {
    const releases: (() => void)[] = [];
    let runs = 0;
    const run = coalesce(async () => {
      runs++;
      await new Promise<void>((r) => releases.push(r));
      return runs;
    });
    const first = run();
    const asks = [run(), run(), run()];
    expect(runs).toBe(1);
    releases.shift()!();
    await expect(first).resolves.toBe(1);
    await expect.poll(() => runs).toBe(2);
    releases.shift()!();
    expect(await Promise.all(asks)).toEqual([2, 2, 2]);
    expect(runs).toBe(2);
  });

  it('a failed run does not block the next one', async () => {
    let n = 0;
    const run = coalesce(async () => {
      if (++n === 1) throw new Error('down');
      return n;
    });
    const a = run();
    const b = run();
    await expect(a).rejects.toThrow('down');
    await expect(b).resolves.toBe(2);
  });
});
