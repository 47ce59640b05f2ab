/**
 * The contract's settings area: the settings, their defaults and the API key's status. Every type is
 * derived from the schema that checks it (src/shared/schemas.ts).
 */
import { z } from 'zod';
import { ErrorInfoSchema } from '../errors';
import {
  DEFAULT_BACKLOG_MINUTES,
  DEFAULT_FUEL_THRESHOLD_HOURS,
  DEFAULT_PENDING_MINUTES,
  DEFAULT_POLL_INTERVAL_S,
  DEFAULT_RETENTION_DAYS,
  DEFAULT_ROUTE_HISTORY_HOURS,
  DEFAULT_SILENT_MINUTES,
  DEFAULT_STUCK_MINUTES,
} from '../policy';
import { FeedFilterSchema, NotifyPrefsSchema, SettingsPatchSchema, SettingsSchema, TRANSITION_KINDS, UNDO_KINDS } from '../schemas';

export type Settings = z.output<typeof SettingsSchema>;
export type SettingsPatch = z.input<typeof SettingsPatchSchema>;
export type DataSource = Settings['dataSource'];
/** The data sources' kinds, for results that name the source they read (checked against the settings' union below). */
export const DataSourceKindSchema = z.enum(['local', 'avalanche', 'custom', 'ownNodes']);
export type NotifyPrefs = z.output<typeof NotifyPrefsSchema>;
export type FeedFilter = z.output<typeof FeedFilterSchema>;
export type NotifyKind = (typeof TRANSITION_KINDS)[number];
export type TransitionKind = NotifyKind | (typeof UNDO_KINDS)[number];

/** A watched route (its alert on) alerts when this many of its deliveries of the last hour failed to execute (a count, not a time: not in policy.ts). */
export const DEFAULT_FAILED_EXECUTIONS_PER_HOUR = 3;
/** A relayer's metrics claiming this many deliveries more than the chains show (in the comparison window) alerts. */
export const DEFAULT_RELAYER_CLAIM_EXCESS = 3;
/** This many relays failed with one reason in the comparison window alerts (a dry wallet fails every relay). */
export const DEFAULT_RELAYER_FAILURES_IN_WINDOW = 5;

export const DEFAULT_NOTIFY: NotifyPrefs = { new: false, left_pending: true, receipt_delivered: true, stuck: true };

export const DEFAULT_SETTINGS: Settings = {
  dataSource: { kind: 'local' },
  network: 'mainnet',
  apiKeyHeader: 'x-glacier-api-key',
  pollIntervalSeconds: DEFAULT_POLL_INTERVAL_S,
  stuckThresholdMinutes: DEFAULT_STUCK_MINUTES,
  notifications: { enabled: true, ...DEFAULT_NOTIFY },
  plan: 'auto',
  retentionDays: DEFAULT_RETENTION_DAYS,
  theme: 'system',
  startAtLogin: false,
  startHidden: false,
  alertChannels: [],
  allowLinkLocalAlertTargets: false,
  relayerSilentMinutes: DEFAULT_SILENT_MINUTES,
  relayerPendingMinutes: DEFAULT_PENDING_MINUTES,
  routeBacklogMinutes: DEFAULT_BACKLOG_MINUTES,
  relayerFuelThresholdHours: DEFAULT_FUEL_THRESHOLD_HOURS,
  routeFailedExecutionsPerHour: DEFAULT_FAILED_EXECUTIONS_PER_HOUR,
  routeHistoryHours: DEFAULT_ROUTE_HISTORY_HOURS,
  relayerClaimExcess: DEFAULT_RELAYER_CLAIM_EXCESS,
  relayerFailuresInWindow: DEFAULT_RELAYER_FAILURES_IN_WINDOW,
};

export const AVALANCHE_DATA_API_BASE_URL = 'https://glacier-api.avax.network';

export const ApiKeyStatusSchema = z.object({
  hasApiKey: z.boolean(),
  /** keychain: in the OS keychain; memory: this session only (no keychain available); none. */
  storage: z.enum(['keychain', 'memory', 'none']),
  /** Why the keychain cannot be used, and what to install. */
  keychainError: z.string().optional(),
});
export type ApiKeyStatus = z.output<typeof ApiKeyStatusSchema>;

export const ApiKeyTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  error: ErrorInfoSchema.optional(),
});
export type ApiKeyTestResult = z.output<typeof ApiKeyTestResultSchema>;

// The kinds repeat the settings' data-source union: a kind added to one only fails the typecheck here.
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const same = <A, B>(ok: Same<A, B>): Same<A, B> => ok;
same<z.output<typeof DataSourceKindSchema>, DataSource['kind']>(true);
