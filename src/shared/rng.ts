/**
 * A small seeded PRNG (sfc32, seeded through splitmix32) so the simulator and the fault injector are
 * reproducible: the same seed and the same sequence of calls give the same numbers on every machine.
 */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

const BYTE_HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const init = splitmix32(seed);
    this.a = init();
    this.b = init();
    this.c = init();
    this.d = init();
    for (let i = 0; i < 12; i++) this.uint32(); // let the state mix before the first draw
  }

  uint32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = ((this.c << 21) | (this.c >>> 11)) >>> 0;
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.uint32() / 4294967296;
  }

  /** Uniform integer in [min, max). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick needs at least one item.');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** Picks an item with probability proportional to its weight. */
  weighted<T>(items: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of items) total += w;
    let u = this.next() * total;
    for (const [item, w] of items) {
      u -= w;
      if (u < 0) return item;
    }
    return (items[items.length - 1] as readonly [T, number])[0];
  }

  /** Exponentially distributed with the given mean (inter-arrival times of a Poisson process). */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }

  /** Log-normal around a median, for delays with a long tail. */
  logNormal(median: number, sigma: number): number {
    const u1 = 1 - this.next();
    const u2 = this.next();
    const normal = Math.sqrt(-2 * Math.log(u1)) * Math.cos(2 * Math.PI * u2);
    return median * Math.exp(sigma * normal);
  }

  /** `bytes` random bytes as lower-case hex without prefix (four bytes per draw). */
  hex(bytes: number): string {
    let out = '';
    for (let i = 0; i < bytes; i += 4) {
      const v = this.uint32();
      out += BYTE_HEX[v >>> 24]! + BYTE_HEX[(v >>> 16) & 255]! + BYTE_HEX[(v >>> 8) & 255]! + BYTE_HEX[v & 255]!;
    }
    return bytes % 4 === 0 ? out : out.slice(0, bytes * 2);
  }
}
