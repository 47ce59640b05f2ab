import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { CacheSummary, DemoRelayer, MonitorInput } from '../../../shared/contract';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import type { RelayerFigure, RelayerOverview, WatchedRelayer, WatchedRoute } from '../../../shared/relayers';
import { monitor, useMonitorEvents } from '../client';
import type { MonitorEventOf } from '../monitor-events';
import { coalesce } from '../logic/coalesce';
import { splitError, type FieldErrors } from '../logic/field-errors';
import type { RelayersFocus } from '../logic/alert-target';
import { useActivityStore } from './activity';

/** A demo relayer's thresholds: its outage alerts within minutes of `npm start`, not half an hour. */
export const DEMO_THRESHOLDS = { silentMinutes: 2, pendingMinutes: 1 } as const;
/** The demo relayer's routes back up within its outage at this threshold (the demo's slowest delivery takes 3 min). */
export const DEMO_BACKLOG_MINUTES = 4;

let ownToasts = 0;
/** A toast of the window's own (not the core's): a warning stays until dismissed, a note goes after its time. */
function toastOwn(title: string, body: string, severity: 'warning' | 'info'): void {
  const id = -++ownToasts;
  useActivityStore().pendingToasts.push({ key: `p${-id}`, kind: 'notification', notification: { id, title, body, severity, transitionIds: [] } });
}
const toastProblem = (title: string, body: string) => toastOwn(title, body, 'warning');
const toastNote = (title: string, body: string) => toastOwn(title, body, 'info');

/** What a click-through lists: the messages one figure counts. */
export interface FigureTarget {
  relayer?: string;
  routeId?: string;
  figure: RelayerFigure;
  /** What the list is of, in words ("Deliveries in 24 h by Ours"). */
  title: string;
}

/**
 * The Relayers view: the watched relayers and routes, and the overview the core computes from its
 * cache. Opened once, the overview follows each poll cycle's transitions batch (a re-read of the
 * core's cache, at most one in flight), replacing the figures in place.
 */
export const useRelayersStore = defineStore('relayers', () => {
  const overview = shallowRef<RelayerOverview | null>(null);
  const relayers = shallowRef<WatchedRelayer[]>([]);
  const routes = shallowRef<WatchedRoute[]>([]);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  const relayerErrors = ref<FieldErrors>({});
  const routeErrors = ref<FieldErrors>({});
  const target = shallowRef<FigureTarget | null>(null);
  const counted = shallowRef<CacheSummary[]>([]);
  const countedError = ref<ErrorInfo | null>(null);
  /** The relayer or route row an Activity alert led to (marked until the view is left). */
  const focus = shallowRef<RelayersFocus | null>(null);
  let countedSeq = 0;

  const refresh = coalesce(async () => {
    try {
      const [o, rs, ro] = await Promise.all([monitor().relayerOverview(), monitor().listRelayers(), monitor().listRoutes()]);
      overview.value = o;
      relayers.value = rs;
      routes.value = ro;
      error.value = null;
      loaded.value = true;
    } catch (e) {
      error.value = toErrorInfo(e);
    }
  });

  /** Everything the view shows, read again; nothing until the view was opened (never rejects). */
  const resync = (): Promise<void> => (loaded.value ? refresh() : Promise.resolve());
  const follow = () => void resync();
  // A route's own messages make no transitions (no Activity): a finished poll cycle is what refreshes then.
  let lastCycle: number | null = null;
  const followCycle = (e: MonitorEventOf<'poll-status'>) => {
    if (e.status.lastSuccessAt === lastCycle) return;
    lastCycle = e.status.lastSuccessAt;
    follow();
  };
  useMonitorEvents({ transitions: follow, 'watchlist-changed': follow, 'poll-status': followCycle });

  async function addRelayer(input: MonitorInput<'addRelayer'>): Promise<boolean> {
    relayerErrors.value = {};
    try {
      await monitor().addRelayer(input);
    } catch (e) {
      const { fields, general } = splitError(e);
      relayerErrors.value = general ? { address: general.message } : fields;
      return false;
    }
    await refresh();
    return true;
  }

  async function addRoute(input: MonitorInput<'addRoute'>): Promise<boolean> {
    routeErrors.value = {};
    try {
      await monitor().addRoute(input);
    } catch (e) {
      const { fields, general } = splitError(e);
      routeErrors.value = general ? { source: general.message } : fields;
      return false;
    }
    await refresh();
    return true;
  }

  /**
   * Watches a demo relayer and the routes it delivers on (a route already watched stays as it is),
   * with short thresholds so its silence and its routes' backlog alert within minutes.
   */
  async function watchDemo(d: DemoRelayer): Promise<boolean> {
    relayerErrors.value = {};
    try {
      const have = new Set((await monitor().listRoutes()).map((r) => `${r.sourceChain}>${r.destinationChain}`));
      for (const r of d.routes) {
        if (!have.has(`${r.source}>${r.destination}`))
          await monitor().addRoute({ source: r.source, destination: r.destination, backlogMinutes: DEMO_BACKLOG_MINUTES });
      }
      await monitor().addRelayer({ address: d.address, label: d.name, ...DEMO_THRESHOLDS });
    } catch (e) {
      error.value = toErrorInfo(e);
      await refresh();
      return false;
    }
    await refresh();
    return true;
  }

  async function removeRelayer(address: string): Promise<void> {
    await monitor().removeRelayer({ address });
    await refresh();
  }

  /** Routes whose readRouteHistory call is on its way (their button waits for the answer). */
  const askingHistory = ref<ReadonlySet<string>>(new Set());

  /**
   * Asks the core to read a watched route's last `hours` (silently, after news, over the next cycles);
   * the row then says the read goes on. A refusal is a warning toast (the figures stay as they were).
   */
  async function readRouteHistory(routeId: string, hours: number): Promise<boolean> {
    askingHistory.value = new Set([...askingHistory.value, routeId]);
    try {
      const read = await monitor().readRouteHistory({ routeId, hours });
      // Time moved on since the row offered it, or another window asked first: said, not silently dropped.
      if (!read.started && !read.reading) toastNote(`The route's figures already hold its last ${hours} h`, 'Nothing more to read.');
      return true;
    } catch (e) {
      toastProblem(`Could not read the route's last ${hours} h`, toErrorInfo(e).message);
      return false;
    } finally {
      askingHistory.value = new Set([...askingHistory.value].filter((id) => id !== routeId));
      await refresh();
    }
  }

  async function removeRoute(id: string): Promise<void> {
    await monitor().removeRoute({ id });
    await refresh();
  }

  /** Lists the messages a figure counts (the newest answer wins if clicks overlap). */
  async function open(t: FigureTarget): Promise<void> {
    const my = ++countedSeq;
    target.value = t;
    counted.value = [];
    countedError.value = null;
    try {
      const rows = await monitor().relayerFigureMessages({
        figure: t.figure,
        ...(t.relayer !== undefined ? { relayer: t.relayer } : {}),
        ...(t.routeId !== undefined ? { routeId: t.routeId } : {}),
      });
      if (my === countedSeq) counted.value = rows;
    } catch (e) {
      if (my === countedSeq) countedError.value = toErrorInfo(e);
    }
  }

  function closeCounted(): void {
    countedSeq++;
    target.value = null;
    counted.value = [];
  }

  return {
    overview,
    relayers,
    routes,
    loaded,
    error,
    relayerErrors,
    routeErrors,
    target,
    counted,
    countedError,
    focus,
    load: refresh,
    resync,
    addRelayer,
    addRoute,
    watchDemo,
    removeRelayer,
    removeRoute,
    askingHistory,
    readRouteHistory,
    open,
    closeCounted,
  };
});
