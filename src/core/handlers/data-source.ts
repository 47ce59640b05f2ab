import { AVALANCHE_DATA_API_BASE_URL, type Settings } from '../../shared/contract';
import type { Clock } from '../../shared/clock';
import type { Network } from '../../shared/validators';
import { resolvePlan, type ResolvedPlan } from '../../shared/plans';
import { RequestBudget, type DaySpend } from '../data-api/budget';
import { DataApiClient, type ClientOptions } from '../data-api/client';
import { PathFamilyChoice, type PathFamily } from '../data-api/path-family';
import { PoolRegistry } from '../data-api/pools';
import { SkippedRecordTally } from '../data-api/skipped-records';
import { sourceKeyOf, sourceTitle } from '../../shared/sources';
import type { Logger } from '../log/logger';
import type { RecordSkipReason, SkippedRecords } from '../../shared/record-bounds';

/** Small JSON values kept across restarts (the poll-state table). */
interface KeptValues {
  get<T>(key: string): T | undefined;
  set(key: string, value: unknown): void;
}

/** The plan's limits for the current settings: the local service never gets the user's key, so it counts as keyless. */
function planFor(settings: Settings, hasKey: boolean): ResolvedPlan {
  return resolvePlan(settings.plan, hasKey && !isLocalService(settings.dataSource.kind));
}

/** The header the public Data API (and its official SDKs) read the key from; it ignores any other. */
const PUBLIC_API_KEY_HEADER = 'x-glacier-api-key';

/** The key header a data source is sent: fixed for the public API, the configured one elsewhere (the local service accepts either name). */
export const keyHeaderFor = (settings: Settings): string => (settings.dataSource.kind === 'avalanche' ? PUBLIC_API_KEY_HEADER : settings.apiKeyHeader);

/** The path family tried first: the public API's current ICM paths; the seed's teleporter paths for the local service. */
const preferredFamily = (kind: Settings['dataSource']['kind']): PathFamily => (kind === 'local' || kind === 'ownNodes' ? 'teleporter' : 'icm');

/** The local service answers for these sources (embedded demo, own nodes): it neither needs nor knows the user's key. */
export const isLocalService = (kind: Settings['dataSource']['kind']): boolean => kind === 'local' || kind === 'ownNodes';

/**
 * Where requests go for the current settings: one keep-alive pool and one request budget per base
 * URL, one path-family choice per base URL (remembered across networks and settings changes), and one
 * client per (base URL, network, key header).
 */
export class DataSources {
  readonly pools = new PoolRegistry();
  private budgets = new Map<string, RequestBudget>();
  private clients = new Map<string, DataApiClient>();
  private families = new Map<string, PathFamilyChoice>();
  /** Records each data source sent that were skipped at the boundary. */
  private readonly skips: SkippedRecordTally;

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly settings: () => Settings,
    private readonly apiKey: () => string | null,
    private readonly localUrl: () => string | null,
    private readonly observe?: ClientOptions['observe'],
    private readonly ownNodesUrl: () => string | null = () => null,
    /** Where each base URL's spend of the day is kept (none: it starts again at each start). */
    private readonly kept?: KeptValues,
    /** Counts a skipped record into /metrics. */
    countSkipped?: (reason: RecordSkipReason, source: string, n: number) => void,
    /** Where settings are changed, as the clients' error advice names it (default: Settings). */
    private readonly settingsPlace?: string,
  ) {
    this.skips = new SkippedRecordTally(clock, logger, countSkipped);
  }

  /** What the poll status says of the records the current data source sent that were skipped (undefined: none). */
  skippedRecords(): SkippedRecords | undefined {
    return this.skips.status(this.baseUrl());
  }

  /** The base URL for the current data source, or null while the local service is not up. */
  baseUrl(): string | null {
    const ds = this.settings().dataSource;
    if (ds.kind === 'avalanche') return AVALANCHE_DATA_API_BASE_URL;
    if (ds.kind === 'custom') return ds.baseUrl;
    if (ds.kind === 'ownNodes') return this.ownNodesUrl();
    return this.localUrl();
  }

  budget(): RequestBudget {
    const url = this.baseUrl() ?? 'none:';
    const plan = planFor(this.settings(), !!this.apiKey());
    let b = this.budgets.get(url);
    if (!b) {
      const kept = this.kept;
      const key = `quota-spend:${url}`;
      b = new RequestBudget(this.clock, plan, {
        planName: plan.name,
        ...(kept ? { store: { load: () => kept.get<DaySpend>(key), save: (s) => kept.set(key, s) } } : {}),
      });
      this.budgets.set(url, b);
    } else b.setLimits(plan, plan.name);
    return b;
  }

  client(network: Network, opts: { apiKey?: () => string | null } = {}): DataApiClient | null {
    const baseUrl = this.baseUrl();
    if (!baseUrl) return null;
    const header = keyHeaderFor(this.settings());
    const key = `${this.settings().dataSource.kind}|${baseUrl}|${network}|${header}`;
    if (opts.apiKey) return this.make(baseUrl, network, header, opts.apiKey);
    let c = this.clients.get(key);
    if (!c) {
      // The user's key is for the Avalanche Data API (or a custom endpoint): the embedded demo service
      // neither needs nor knows it, so requests there go without it (testApiKey sends nothing there either).
      const apiKey = isLocalService(this.settings().dataSource.kind) ? () => null : this.apiKey;
      c = this.make(baseUrl, network, header, apiKey);
      this.clients.set(key, c);
    }
    return c;
  }

  private make(baseUrl: string, network: Network, header: string, apiKey: () => string | null): DataApiClient {
    // The source as every source label names it (teleporter_watch_source_up's): its title, not its kind.
    const source = sourceTitle(sourceKeyOf(this.settings().dataSource));
    const host = new URL(baseUrl).host;
    return new DataApiClient({
      baseUrl,
      network,
      pool: this.pools.get(baseUrl),
      budget: this.budget(),
      clock: this.clock,
      logger: this.logger,
      apiKey,
      apiKeyHeader: header,
      ...(this.observe ? { observe: this.observe } : {}),
      onSkipped: (skipped) => this.skips.note(baseUrl, source, host, skipped),
      family: this.family(baseUrl),
      ...(this.settingsPlace ? { settingsPlace: this.settingsPlace } : {}),
    });
  }

  private family(baseUrl: string): PathFamilyChoice {
    const kind = this.settings().dataSource.kind;
    const key = `${kind}|${baseUrl}`;
    let f = this.families.get(key);
    if (!f) {
      f = new PathFamilyChoice(new URL(baseUrl).pathname.replace(/\/+$/, ''), preferredFamily(kind));
      this.families.set(key, f);
    }
    return f;
  }

  close(): Promise<void> {
    this.clients.clear();
    return this.pools.close();
  }
}
