import { createHash } from 'node:crypto';
import type { Dispatcher } from 'undici';
import { alertChannelKey, type AlertChannelConfig } from '../../shared/alert-schemas';
import { refusedAlertUrl, type AllowHow } from '../../shared/alert-targets';
import type { AlertRecord } from './alert-record';
import { DeliveryError, postJson, safeOrigin } from './post-json';
import { EPISODE_HOLD_MS } from '../../shared/policy';
import { MINUTE_MS } from '../../shared/time';

/** A place alerts go. `send` resolves once the receiver accepted every record, else throws. */
export interface AlertChannel {
  /** Stable across restarts (the delivery rows are keyed by it). */
  id: string;
  /** alertChannelKey of its config (the page matches its rows by it). */
  key: string;
  /** For logs and metrics: the type and name, never the URL's secret parts. */
  name: string;
  /** Records per request. */
  batchSize: number;
  send(records: AlertRecord[], signal?: AbortSignal): Promise<void>;
}

const DEFAULT_TIMEOUT_S = 10;

/** The labels Alertmanager fingerprints an alert by: identical on every replica of one config. */
function alertmanagerLabels(r: AlertRecord): Record<string, string> {
  return {
    alertname: `TeleporterMessage_${r.kind}`,
    kind: r.kind,
    route: r.route,
    watch: r.watch,
    messageId: r.messageId,
    network: r.network,
    source: r.source,
    severity: r.kind === 'stuck' || r.kind.endsWith('_undone') ? 'warning' : 'info',
  };
}

// Not the Prometheus rules' RelayerSilent and RouteBacklog: a setup using both can route each on its own.
const EPISODE_ALERTNAMES: Record<string, string> = {
  relayer_silent: 'TeleporterRelayerSilent',
  route_backlog: 'TeleporterRouteBacklog',
  fuel_low: 'TeleporterRelayerFuelLow',
  route_failed_executions: 'TeleporterRouteFailedExecutions',
  relayer_claims_unseen: 'TeleporterRelayerClaimsUnseen',
  relayer_failures: 'TeleporterRelayerFailures',
  source_down: 'TeleporterSourceDown',
  chain_down: 'TeleporterChainDown',
};

/** An episode's labels: the same for its fire and its resolve, so Alertmanager resolves the alert it holds. */
function episodeLabels(r: AlertRecord & { episode: NonNullable<AlertRecord['episode']> }): Record<string, string> {
  const kind = r.kind.replace(/_resolved$/, '');
  return {
    alertname: EPISODE_ALERTNAMES[kind] ?? kind,
    kind,
    episode: r.episode.key,
    watch: r.watch,
    network: r.network,
    source: r.source,
    ...(r.route ? { route: r.route } : {}),
    severity: 'warning',
  };
}

function episodeAlert(r: AlertRecord & { episode: NonNullable<AlertRecord['episode']> }, now: number): unknown {
  return {
    labels: episodeLabels(r),
    annotations: { summary: r.title, description: r.body },
    startsAt: new Date(r.episode.startedAt).toISOString(),
    endsAt: new Date(r.episode.phase === 'resolve' ? r.at : Math.max(now, r.at) + EPISODE_HOLD_MS).toISOString(),
  };
}

function alertmanagerBody(records: AlertRecord[], now: number, resolveAfterMs: number): unknown[] {
  return records.map((r) =>
    r.episode
      ? episodeAlert({ ...r, episode: r.episode }, now)
      : {
          labels: alertmanagerLabels(r),
          annotations: { summary: r.title, description: r.body, link: r.link },
          generatorURL: r.link,
          startsAt: new Date(r.at).toISOString(),
          // A transition is an event: it stays firing long enough to be routed, then resolves by itself.
          endsAt: new Date(Math.max(now, r.at) + resolveAfterMs).toISOString(),
        },
  );
}

/** Slack's incoming-webhook body (also read by Mattermost, Rocket.Chat and others). */
function slackBody(r: AlertRecord): unknown {
  if (r.episode) return { text: `*${r.title}*\n${r.body}` };
  return { text: `*${r.title}* (${r.watch || 'unlabelled'})\n${r.body}\n<${r.link}|Open message ${r.messageId.slice(0, 10)}…>` };
}

/** Where a channel may send: link-local and metadata addresses only when allowed, and how the refusal says to allow them. */
export interface ChannelTargets {
  allowLinkLocal: boolean;
  how: AllowHow;
}

export function createChannel(config: AlertChannelConfig, dispatcher: Dispatcher, now: () => number, targets: ChannelTargets): AlertChannel {
  const timeoutMs = (config.timeoutSeconds ?? DEFAULT_TIMEOUT_S) * 1000;
  const hash = createHash('sha256').update(`${config.type}|${config.url}`).digest('hex').slice(0, 12);
  const id = `${config.type}:${config.name ?? hash}`;
  const name = `${config.type} ${config.name ?? safeOrigin(config.url)}`;
  const base = { id, key: alertChannelKey(config), name };
  // A URL saved before such targets were refused (or written by hand) is refused here, with no request made.
  const refused = targets.allowLinkLocal ? null : refusedAlertUrl(config.url, config.type === 'alertmanager' ? 'Alertmanager url' : 'Webhook url', targets.how);
  const checked = (send: AlertChannel['send']): AlertChannel['send'] => (refused ? () => Promise.reject(new DeliveryError(refused, 'refused address')) : send);
  if (config.type === 'alertmanager') {
    const url = `${config.url.replace(/\/+$/, '')}/api/v2/alerts`;
    const resolveAfterMs = (config.resolveAfterMinutes ?? 60) * MINUTE_MS;
    return {
      ...base,
      batchSize: 100,
      send: checked((records, signal) =>
        postJson(dispatcher, url, alertmanagerBody(records, now(), resolveAfterMs), { timeoutMs, ...(signal ? { signal } : {}) }),
      ),
    };
  }
  return {
    ...base,
    batchSize: 1,
    send: checked(async (records, signal) => {
      for (const r of records) {
        const body = config.format === 'slack' ? slackBody(r) : { ...r, at: new Date(r.at).toISOString() };
        await postJson(dispatcher, config.url, body, { timeoutMs, headers: { 'idempotency-key': r.key }, ...(signal ? { signal } : {}) });
      }
    }),
  };
}
