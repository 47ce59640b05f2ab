/**
 * The shape of the core as the Electron shell (src/main) and the web host (src/host) use it.
 * Implemented by `createMonitorCore` in ./create-core.ts, over the parts it lists in start order.
 */
import type { Clock } from '../shared/clock';
import type { InvokeResponse, MonitorEvent, MonitorHandlers, NotificationPayload, ShellName } from '../shared/contract';
import type { AlertChannelConfig } from '../shared/alert-schemas';
import type { DeliveryReport } from './alerts/dispatcher';
import type { Logger } from './log/logger';
import type { CoreMetrics } from './metrics/core-metrics';

/** How the embedded local service is reached when the data source is `local`. */
export type LocalServiceSpec =
  /** Already running (tests, or a host that started it). */
  | { kind: 'url'; url: string }
  /** Start it as a child process: `command args... --port 0 --db <dataDir>/local-service.sqlite`, wait for "listening on <url>". */
  | { kind: 'spawn'; command: string; args: string[]; env?: Record<string, string> };

/** One delivery attempt to an alert channel: `count` alerts sent, or failed with `error` (retried later), and the channel's state after it. */
export type AlertDeliveryResult = DeliveryReport;

export interface MonitorCoreOptions {
  /** Folder for the SQLite database and other state (the user's data folder). */
  dataDir: string;
  shell: ShellName;
  version: string;
  clock?: Clock;
  logger?: Logger;
  /** Keychain service name (tests use a unique one). Default 'teleporter-watch'. */
  keychainService?: string;
  /** Where the local service lives; required for the `local` data source. */
  localService?: LocalServiceSpec;
  /** Shows a desktop notification; resolving acknowledges it (the outbox then never shows it again). */
  notifier?: (n: NotificationPayload) => Promise<void> | void;
  /** Opens an allow-listed https explorer URL (Electron: shell.openExternal). Absent in the web host. */
  openExternal?: (url: string) => Promise<void>;
  /**
   * Own nodes that fail their check when saved: `refuse` the settings (default: a person at the form
   * fixes the field) or `report` each failure in the log and keep the chain (headless: one bad node
   * never stops the watcher; the service shows that chain in its state).
   */
  ownNodesCheck?: 'refuse' | 'report';
  /** Start polling on start() (default true). */
  autoPoll?: boolean;
  /** Where a person changes the settings, as error advice names it (default: "Settings"; headless: "the config file <path>", it has no Settings). */
  settingsPlace?: string;
  /** An API key for this process only (headless: from the environment or a key file); the keychain is left alone. */
  apiKey?: string;
  /** Alert channels fed from the outbox (headless: Alertmanager, webhooks). */
  alerts?: {
    channels: AlertChannelConfig[];
    /** The link back to a message (default: the data source's get-by-ID URL). */
    messageLink?: (messageId: string) => string;
    retryBaseMs?: number;
    maxRetryMs?: number;
    /** Lets these channels send to link-local and cloud metadata addresses (headless: alerts.allowLinkLocal; refused by default). */
    allowLinkLocal?: boolean;
    /** How long close() waits for a last delivery before leaving the rest for the next start (default 5 s). */
    closeGraceMs?: number;
    /** Each delivery attempt's result (headless: failures on the console); `error` is already redacted. */
    onDelivery?: (r: AlertDeliveryResult) => void;
  };
  /** Keep a Prometheus registry (`service.metrics`); processMetrics adds the process's own. */
  metrics?: { processMetrics?: boolean };
  /** A watched relayer's own metrics reads (default: the policy's cadence, window, timeout and size cap; tests shorten them). */
  relayerMetrics?: { everyMs?: number; windowMs?: number; timeoutMs?: number; maxBytes?: number };
}

export interface MonitorCore {
  readonly handlers: MonitorHandlers;
  /** Validates the input against the contract and dispatches; never throws (errors become values). */
  invoke(method: string, input: unknown): Promise<InvokeResponse>;
  onEvent(listener: (event: MonitorEvent) => void): () => void;
  /**
   * Attaches a notifier after creation (the web host: when a page connects); the returned function
   * detaches it. A notification counts as delivered only once a notifier has shown it: with none
   * attached the outbox keeps it.
   */
  attachNotifier(notifier: (n: NotificationPayload) => Promise<void> | void): () => void;
  start(): Promise<void>;
  close(): Promise<void>;
  /** Adds many watches in one go (validated like addWatch; already watched ones are left alone); returns how many were added. */
  addWatches(watches: unknown): Promise<number>;
  /** Present when `options.metrics` was given. */
  readonly metrics?: CoreMetrics;
}
