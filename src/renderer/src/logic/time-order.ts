/** Which way a list runs in time: the header of its time column switches it. */
export type TimeOrder = 'newest' | 'oldest';

/** A copy of `rows` in time order; rows without a time go last either way (they cannot be placed). */
export function byTime<T>(rows: readonly T[], timeOf: (row: T) => number | null, order: TimeOrder): T[] {
  const sign = order === 'newest' ? -1 : 1;
  return [...rows].sort((a, b) => {
    const x = timeOf(a);
    const y = timeOf(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    return sign * (x - y);
  });
}

/** The time column's header text: its name and the current direction. */
export const timeHeader = (name: string, order: TimeOrder): string => `${name} ${order === 'newest' ? '↓ newest first' : '↑ oldest first'}`;
