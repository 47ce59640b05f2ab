/**
 * Chooses how to read one conjunction of equality filters in `pos` order: an index whose columns are
 * exactly constrained (or enumerable: networks and routes are few), read as one range scan per value
 * combination. Pure, so it is tested on its own.
 */
import type { IndexColumn, IndexSpec } from './schema';

export interface Conjunction {
  /** Allowed network codes; only set when no chain filter is (routes already carry their network). */
  net?: readonly number[];
  /** Allowed routes; set when any chain filter is given. */
  routes?: readonly number[];
  frm?: number;
  too?: number;
}

interface Universe {
  /** Every route with its network. */
  routes: readonly { id: number; net: number }[];
}

interface ScanPlan {
  /** null = scan the table itself (rowid order). */
  index: IndexSpec | null;
  /** One list of bound values (in index column order) per range scan. */
  scans: number[][];
}

function valuesFor(col: IndexColumn, c: Conjunction, u: Universe): readonly number[] | null {
  switch (col) {
    case 'frm':
      return c.frm === undefined ? null : [c.frm];
    case 'too':
      return c.too === undefined ? null : [c.too];
    case 'net':
      if (c.routes) return null; // a network code cannot express a route filter
      return c.net ?? [...new Set(u.routes.map((r) => r.net))];
    case 'route':
      if (c.routes) return c.routes;
      return u.routes.filter((r) => !c.net || c.net.includes(r.net)).map((r) => r.id);
  }
}

function covers(ix: IndexSpec, c: Conjunction): boolean {
  const has = (col: IndexColumn) => ix.cols.includes(col);
  if ((c.frm !== undefined) !== has('frm') || (c.too !== undefined) !== has('too')) return false;
  if (c.routes && !has('route')) return false;
  if (c.net && !has('net') && !has('route')) return false;
  return true;
}

function product(lists: readonly (readonly number[])[]): number[][] {
  let out: number[][] = [[]];
  for (const list of lists) out = out.flatMap((prefix) => list.map((v) => [...prefix, v]));
  return out;
}

/** The cheapest exact plan, or null when the filters cannot match anything. */
export function planScans(c: Conjunction, u: Universe, indexes: readonly IndexSpec[]): ScanPlan | null {
  if (c.net?.length === 0 || c.routes?.length === 0) return null;
  if (c.net === undefined && c.routes === undefined && c.frm === undefined && c.too === undefined) {
    return { index: null, scans: [[]] };
  }
  let best: { index: IndexSpec; lists: (readonly number[])[]; cost: number } | null = null;
  for (const ix of indexes) {
    if (!covers(ix, c)) continue;
    const lists = ix.cols.map((col) => valuesFor(col, c, u));
    if (lists.some((l) => l === null)) continue;
    const cost = lists.reduce((n, l) => n * l!.length, 1);
    if (!best || cost < best.cost) best = { index: ix, lists: lists as (readonly number[])[], cost };
  }
  if (!best) throw new Error('No index covers this filter combination (a bug in MESSAGE_INDEXES).');
  if (best.cost === 0) return null;
  return { index: best.index, scans: product(best.lists) };
}
