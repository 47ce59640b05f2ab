/** Watched relayers and routes (`relayer_watches`, `route_watches`): beside the address watches and feeds.
 *  Listed in the order they were added (rowid breaks ties within one millisecond). */
import { randomUUID } from 'node:crypto';
import type { WatchedRelayer, WatchedRoute } from '../../shared/relayers';
import type { Network } from '../../shared/validators';
import type { Db } from './database';

/** A row as its statements name the columns: the watch but for `network` (text) and `alert` (0 or 1). */
type Row<T> = Omit<T, 'network' | 'alert'> & { network: string; alert: number };

const RELAYER_COLUMNS = 'address, label, network, silent_minutes AS silentMinutes, pending_minutes AS pendingMinutes, alert, created_at AS createdAt';
const ROUTE_COLUMNS =
  'id, label, network, source_chain AS sourceChain, destination_chain AS destinationChain, backlog_minutes AS backlogMinutes, alert, created_at AS createdAt';

export class RelayerWatches {
  private readonly stmts;

  /** `routesChanged` follows every route added or removed (the watcher index reads routes; a removed one's links go). */
  constructor(
    db: Db,
    private readonly routesChanged: (removedId?: string) => void = () => {},
  ) {
    this.stmts = {
      listRelayers: db.prepare<[], Row<WatchedRelayer>>(`SELECT ${RELAYER_COLUMNS} FROM relayer_watches ORDER BY created_at, rowid`),
      getRelayer: db.prepare<[string], Row<WatchedRelayer>>(`SELECT ${RELAYER_COLUMNS} FROM relayer_watches WHERE address = ?`),
      addRelayer: db.prepare(
        `INSERT OR IGNORE INTO relayer_watches (address, label, network, silent_minutes, pending_minutes, alert, created_at)
         VALUES (@address, @label, @network, @silentMinutes, @pendingMinutes, @alert, @createdAt)`,
      ),
      deleteRelayer: db.prepare('DELETE FROM relayer_watches WHERE address = ?'),
      listRoutes: db.prepare<[], Row<WatchedRoute>>(`SELECT ${ROUTE_COLUMNS} FROM route_watches ORDER BY created_at, rowid`),
      getRoute: db.prepare<[string], Row<WatchedRoute>>(`SELECT ${ROUTE_COLUMNS} FROM route_watches WHERE id = ?`),
      addRoute: db.prepare(
        `INSERT OR IGNORE INTO route_watches (id, label, network, source_chain, destination_chain, backlog_minutes, alert, created_at)
         VALUES (@id, @label, @network, @sourceChain, @destinationChain, @backlogMinutes, @alert, @createdAt)`,
      ),
      deleteRoute: db.prepare('DELETE FROM route_watches WHERE id = ?'),
      setRouteChains: db.prepare('UPDATE route_watches SET source_chain = ?, destination_chain = ? WHERE id = ?'),
      readRouteHistory: db.prepare('UPDATE route_watches SET baseline_done = 0, history_from = ? WHERE id = ?'),
    };
  }

  listRelayers(): WatchedRelayer[] {
    return this.stmts.listRelayers.all().map(toWatch);
  }

  getRelayer(address: string): WatchedRelayer | null {
    const r = this.stmts.getRelayer.get(address);
    return r ? toWatch(r) : null;
  }

  /** False when the address is already watched as a relayer. */
  addRelayer(r: WatchedRelayer): boolean {
    return this.stmts.addRelayer.run({ ...r, alert: r.alert ? 1 : 0 }).changes > 0;
  }

  removeRelayer(address: string): boolean {
    return this.stmts.deleteRelayer.run(address).changes > 0;
  }

  listRoutes(): WatchedRoute[] {
    return this.stmts.listRoutes.all().map(toWatch);
  }

  getRoute(id: string): WatchedRoute | null {
    const r = this.stmts.getRoute.get(id);
    return r ? toWatch(r) : null;
  }

  /** The stored route, or null when the same route (network, source, destination) is already watched. */
  addRoute(r: Omit<WatchedRoute, 'id'>): WatchedRoute | null {
    const route = { ...r, id: randomUUID().slice(0, 8) };
    if (this.stmts.addRoute.run({ ...route, alert: r.alert ? 1 : 0 }).changes === 0) return null;
    this.routesChanged();
    return route;
  }

  /**
   * Takes the route's silent baseline again, back to `fromMs`: the poller reads its history after news,
   * the figures keep what they hold meanwhile. False when no such route is watched.
   */
  readRouteHistory(id: string, fromMs: number): boolean {
    if (this.stmts.readRouteHistory.run(fromMs, id).changes === 0) return false;
    this.routesChanged();
    return true;
  }

  /** A route's chains stored in another form (an EVM chain ID) rewritten as their cb58 IDs; its links, baseline and thresholds stay. */
  setRouteChains(id: string, sourceChain: string, destinationChain: string): void {
    this.stmts.setRouteChains.run(sourceChain, destinationChain, id);
    this.routesChanged();
  }

  removeRoute(id: string): boolean {
    if (this.stmts.deleteRoute.run(id).changes === 0) return false;
    this.routesChanged(id);
    return true;
  }
}

const toWatch = <T>(r: Row<T>): T => ({ ...r, network: r.network as Network, alert: r.alert === 1 }) as T;
