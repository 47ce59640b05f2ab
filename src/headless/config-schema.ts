/**
 * The headless watcher's YAML config file, validated with the contract's own schemas (settings,
 * watches, feeds) plus the alert channels'. Unknown keys are errors, so a typo never goes unnoticed.
 */
import { z } from 'zod';
import { AlertChannelListSchema, refuseLinkLocalTargets } from '../shared/alert-schemas';
import { FeedInputSchema, NotifyPrefsSchema, SettingsSchema, WatchInputSchema } from '../shared/schemas';
import { DataSourceSchema, network } from '../shared/schemas';
import { RelayerWatchInputSchema, RouteWatchInputSchema } from '../shared/relayer-schemas';
import { RelayerMetricsUrlInputSchema } from '../shared/relayer-own-view';
import { OwnNodesSchema } from '../shared/own-nodes';
import { routeLabel, type OwnChain } from '../shared/chains';
import { resolveChainInput, resolveRouteInput, routeIdentity } from '../shared/chain-input';
import type { Network } from '../shared/validators';

const KEY_NOT_HERE =
  'The API key itself never goes in the config file: set apiKey.env (an environment variable name), apiKey.file (a file only its owner can read) or apiKey.keychain: true.';

const namedSource = z.union(
  [
    z.literal('local'),
    z.literal('avalanche'),
    z
      .string()
      .regex(/^https?:\/\//, 'dataSource must be "local", "avalanche" or a base URL starting with http:// or https://.')
      .transform((baseUrl) => ({ kind: 'custom' as const, baseUrl }))
      .pipe(DataSourceSchema.options[2]),
  ],
  { error: 'dataSource must be "local", "avalanche" or a base URL starting with http:// or https://, or { ownNodes: { chains: [...] } }.' },
);
// Your own nodes: `dataSource: { ownNodes: { chains: [{ rpcUrl, blockchainId }], confirmations } }` (docs/own-node.md).
const ownNodesSource = z
  .object({ ownNodes: OwnNodesSchema })
  .strict()
  .transform((o) => ({ kind: 'ownNodes' as const, ownNodes: o.ownNodes }));
/** A mapping is own nodes (its problems are named inside it); anything else one of the named sources. */
const dataSource = z.unknown().transform((v, ctx) => {
  const r = (typeof v === 'object' && v !== null ? ownNodesSource : namedSource).safeParse(v);
  if (r.success) return r.data;
  for (const i of r.error.issues) ctx.addIssue({ code: 'custom', message: i.message, path: i.path });
  return z.NEVER;
});

const ApiKeySourceSchema = z
  .object(
    {
      env: z
        .string()
        .regex(/^[A-Za-z_][A-Za-z0-9_]{0,127}$/, 'apiKey.env must be an environment variable name.')
        .optional(),
      file: z.string().min(1, 'apiKey.file must be a path.').optional(),
      keychain: z.literal(true, { error: 'apiKey.keychain can only be true.' }).optional(),
    },
    { error: (iss) => (typeof iss.input === 'string' ? KEY_NOT_HERE : 'apiKey must be a mapping with one of env, file or keychain.') },
  )
  .strict()
  .refine((k) => [k.env, k.file, k.keychain].filter((v) => v !== undefined).length === 1, 'apiKey needs exactly one of env, file or keychain.');

const listen = z
  .string()
  .regex(/^(\d{1,3}(\.\d{1,3}){3}|localhost|\[[0-9a-fA-F:]+\]):\d{1,5}$/, 'metrics.listen must be <ip>:<port>, such as 127.0.0.1:9464.')
  .refine((s) => Number(s.slice(s.lastIndexOf(':') + 1)) <= 65535, 'metrics.listen port must be at most 65535.');

const MetricsConfigSchema = z
  .object({
    listen: listen.default('127.0.0.1:9464'),
    /** A file holding the bearer token scrapers must send (readable only by its owner). */
    bearerTokenFile: z.string().min(1).optional(),
  })
  .strict();

/**
 * A route without its own network is on the file's: given to it before its chain names are resolved,
 * so `C-Chain` in a Fuji file is Fuji's C-Chain (resolved alone, a name falls back to mainnet's).
 */
export function routesOnFileNetwork(raw: unknown): unknown {
  const c = raw as Record<string, unknown> | null;
  if (!c || typeof c !== 'object' || !Array.isArray(c.routes) || !network.safeParse(c.network).success) return raw;
  const routes = c.routes.map((r: unknown) => (r && typeof r === 'object' && !('network' in r) ? { ...r, network: c.network } : r));
  return { ...c, routes };
}

/** The config's lists: each entry's schema and how many entries a file may hold. */
export const CONFIG_LISTS = {
  watches: { entry: WatchInputSchema, max: 100_000 },
  feeds: { entry: FeedInputSchema, max: 1000 },
  /** A relayer may name its own Prometheus metrics URL (its metrics-port): read beside the chains (docs/relayer-metrics.md). */
  relayers: { entry: RelayerWatchInputSchema.extend({ metricsUrl: RelayerMetricsUrlInputSchema.shape.url.unwrap().optional() }).strict(), max: 1000 },
  routes: { entry: RouteWatchInputSchema, max: 1000 },
} as const;

export const HeadlessConfigSchema = z.preprocess(
  routesOnFileNetwork,
  z
    .object({
      /** Where state is kept; relative paths are relative to the config file. */
      dataDir: z.string().min(1).optional(),
      dataSource: dataSource.default('local'),
      network: SettingsSchema.shape.network.optional(),
      apiKeyHeader: SettingsSchema.shape.apiKeyHeader.optional(),
      pollIntervalSeconds: SettingsSchema.shape.pollIntervalSeconds.optional(),
      stuckThresholdMinutes: SettingsSchema.shape.stuckThresholdMinutes.optional(),
      /** The Data API plan the key is on: auto, unauthenticated, free, base, growth, pro, or { cuPerMinute, cuPerDay }. */
      plan: SettingsSchema.shape.plan.optional(),
      /** Gave way to `plan`: said plainly rather than as an unknown key. */
      requestBudgetPerMinute: z
        .never({
          error:
            'requestBudgetPerMinute was replaced by plan: name the Data API plan the key is on (auto, unauthenticated, free, base, growth, pro) or give { cuPerMinute, cuPerDay }; the budget then keeps within its CU a minute and a day.',
        })
        .optional(),
      retentionDays: SettingsSchema.shape.retentionDays.optional(),
      /** Thresholds for relayers and routes listed without their own (as Settings → Relayer alerts). */
      relayerSilentMinutes: SettingsSchema.shape.relayerSilentMinutes.optional(),
      relayerPendingMinutes: SettingsSchema.shape.relayerPendingMinutes.optional(),
      routeBacklogMinutes: SettingsSchema.shape.routeBacklogMinutes.optional(),
      /** The fuel alert's threshold in hours to empty (as Settings → Relayer alerts). */
      relayerFuelThresholdHours: SettingsSchema.shape.relayerFuelThresholdHours.optional(),
      /** The failed-execution alert's threshold per watched route and hour (as Settings → Relayer alerts). */
      routeFailedExecutionsPerHour: SettingsSchema.shape.routeFailedExecutionsPerHour.optional(),
      /** The relayer's-own-metrics alerts: deliveries it claims beyond what the chains show, failures with one reason (docs/relayer-metrics.md). */
      relayerClaimExcess: SettingsSchema.shape.relayerClaimExcess.optional(),
      relayerFailuresInWindow: SettingsSchema.shape.relayerFailuresInWindow.optional(),
      /** How many hours of a newly watched route's deliveries its first read takes (1, the default, to 24). */
      routeHistoryHours: SettingsSchema.shape.routeHistoryHours.optional(),
      /** Which transitions alert, for watches and feeds that do not say (default: all but `new`). */
      notify: NotifyPrefsSchema.partial().strict().optional(),
      apiKey: ApiKeySourceSchema.optional(),
      metrics: MetricsConfigSchema.optional(),
      alerts: z
        .object({
          /** The link an alert carries; {messageId} is replaced. Default: the data source's get-by-ID URL. */
          messageUrl: z
            .string()
            .url('alerts.messageUrl must be a URL.')
            .refine((u) => u.includes('{messageId}'), 'alerts.messageUrl must contain {messageId}.')
            .optional(),
          channels: AlertChannelListSchema.default([]),
          /** Lets channels send to link-local and cloud metadata addresses (refused by default, docs/security.md). */
          allowLinkLocal: z.boolean({ error: 'alerts.allowLinkLocal must be true or false.' }).default(false),
        })
        .strict()
        .superRefine((a, ctx) => refuseLinkLocalTargets(a.channels, a.allowLinkLocal, 'config', ctx, ['channels']))
        .optional(),
      watches: z.array(CONFIG_LISTS.watches.entry).max(CONFIG_LISTS.watches.max).default([]),
      feeds: z.array(CONFIG_LISTS.feeds.entry).max(CONFIG_LISTS.feeds.max).default([]),
      /** Relayers watched (deliverer or reward address, EIP-55), each with its relayer-silent thresholds. */
      relayers: z.array(CONFIG_LISTS.relayers.entry).max(CONFIG_LISTS.relayers.max).default([]),
      /**
       * An ICM relayer's config file (JSON; relative to this file): its reward addresses, delivery wallets
       * and routes are watched beside the lists here (docs/relayer-config.md). Its keys are never read into state.
       */
      relayerConfig: z.string({ error: 'relayerConfig must be the path of a relayer config file.' }).min(1).max(4096).optional(),
      /** Routes watched (source to destination chain: a name, cb58 ID or EVM chain ID), each with its backlog threshold. */
      routes: z.array(CONFIG_LISTS.routes.entry).max(CONFIG_LISTS.routes.max).default([]),
    })
    .strict()
    .transform(routesByIdentity),
);

/** Your own nodes' chains when the file's data source is own nodes (read loosely: the raw file's may not be valid). */
function ownChainsIn(dataSource: unknown): readonly OwnChain[] {
  const ds = dataSource as { kind?: unknown; ownNodes?: { chains?: unknown } } | null;
  const chains = typeof ds === 'object' && ds !== null ? ds.ownNodes?.chains : undefined;
  if (!Array.isArray(chains) || (ds?.kind !== undefined && ds.kind !== 'ownNodes')) return [];
  return chains.filter((c): c is OwnChain => typeof (c as OwnChain | null)?.blockchainId === 'string');
}

/**
 * A decimal EVM chain ID the file cannot resolve yet: own nodes that do not all say their EVM chain
 * ID, which the watcher learns from the nodes at start (watchlist-sync.ts resolves it then).
 */
const learnedAtStart = (input: string, own: readonly OwnChain[]) => /^[0-9]+$/.test(input.trim()) && own.some((c) => c.evmChainId === undefined);

/** Each route's chains as their cb58 IDs (names, 0x and EVM chain IDs resolved with the file's own chains); a problem at its field. */
function routesByIdentity<C extends { dataSource: unknown; network?: Network | undefined; routes: z.output<typeof RouteWatchInputSchema>[] }>(
  c: C,
  ctx: z.RefinementCtx,
): C {
  const own = ownChainsIn(c.dataSource);
  const routes = c.routes.map((r, i) => {
    const chains = { network: r.network ?? c.network, ownChains: own };
    if (learnedAtStart(r.source, own) || learnedAtStart(r.destination, own)) return r;
    const resolved = resolveRouteInput(r, chains);
    if (resolved.ok) return { ...r, source: resolved.source, destination: resolved.destination };
    for (const p of resolved.problems) ctx.addIssue({ code: 'custom', message: p.message, path: ['routes', i, p.field] });
    return r;
  });
  return { ...c, routes };
}

/** A route's chain as the watcher will store it (its cb58 ID), or as written when it does not resolve. */
function routeChainKey(input: string, net: Network, own: readonly OwnChain[]): string {
  const r = resolveChainInput(input, 'Chain', { network: net, ownChains: own });
  return r.ok ? r.value : input.trim().toLowerCase();
}

/** Watches repeating an address, relayers repeating one, routes naming one route, and feeds repeating a name (checked on the raw file, beside the schema). */
export function duplicateProblems(raw: unknown): { path: (string | number)[]; message: string }[] {
  const out: { path: (string | number)[]; message: string }[] = [];
  const list = (k: string): unknown[] => {
    const v = (raw as Record<string, unknown> | null)?.[k];
    return Array.isArray(v) ? v : [];
  };
  const check = (k: string, field: string, norm: (s: string) => string, what: (v: string, at: number) => string) => {
    const seen = new Map<string, number>();
    list(k).forEach((item, i) => {
      const v = (item as Record<string, unknown> | null)?.[field];
      if (typeof v !== 'string') return;
      const n = norm(v);
      if (seen.has(n)) out.push({ path: [k, i, field], message: what(v, seen.get(n) as number) });
      else seen.set(n, i);
    });
  };
  check(
    'watches',
    'address',
    (s) => s.toLowerCase(),
    (v, at) => `${v} is already watched at watches[${at}].`,
  );
  check(
    'relayers',
    'address',
    (s) => s.toLowerCase(),
    (v, at) => `${v} is already watched at relayers[${at}].`,
  );
  // The same route twice, as the watcher will add it: names (the registry's and your own chains'), 0x and
  // EVM chain IDs resolved to cb58 IDs, the file's network for a route without one.
  const routes = new Map<string, number>();
  const file = raw as Record<string, unknown> | null;
  const own = ownChainsIn(file?.dataSource);
  const asNetwork = (v: unknown): Network | undefined => (network.safeParse(v).success ? (v as Network) : undefined);
  list('routes').forEach((item, i) => {
    const r = item as Record<string, unknown> | null;
    if (typeof r?.source !== 'string' || typeof r.destination !== 'string') return;
    const net = asNetwork(r.network) ?? asNetwork(file?.network) ?? 'mainnet';
    const [source, destination] = [routeChainKey(r.source, net, own), routeChainKey(r.destination, net, own)];
    const k = routeIdentity(net, source, destination);
    const at = routes.get(k);
    if (at === undefined) routes.set(k, i);
    else out.push({ path: ['routes', i, 'destination'], message: `This route (${routeLabel(source, destination, own)}) is already watched at routes[${at}].` });
  });
  check(
    'feeds',
    'name',
    (s) => s.trim(),
    (v, at) => `Feed name "${v}" is already used at feeds[${at}].`,
  );
  return out;
}

export type HeadlessConfig = z.output<typeof HeadlessConfigSchema>;
