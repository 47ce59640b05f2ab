import { z } from 'zod';
import { refusedAlertUrl, type AllowHow } from './alert-targets';

/** Longer URLs are refused (a webhook URL with a token fits easily). */
const MAX_CHANNEL_URL_CHARS = 2048;

const httpUrl = (what: string) =>
  z
    .string({ error: `${what} must be a URL.` })
    .max(MAX_CHANNEL_URL_CHARS, `${what} must be at most ${MAX_CHANNEL_URL_CHARS} characters.`)
    .url(`${what} must be a full URL such as http://127.0.0.1:9093.`)
    .refine((u) => /^https?:\/\//.test(u), `${what} must start with http:// or https://.`);

const name = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,40}$/, 'Channel name must be 1-40 letters, digits, dots, dashes or underscores.')
  .optional();
const timeoutSeconds = z.number().int().min(1, 'timeoutSeconds must be at least 1.').max(120, 'timeoutSeconds must be at most 120.').optional();

/** Alerts pushed to Alertmanager's v2 API (POST <url>/api/v2/alerts). */
const AlertmanagerChannelSchema = z
  .object({
    type: z.literal('alertmanager'),
    url: httpUrl('Alertmanager url'),
    name,
    timeoutSeconds,
    /** How long an alert stays firing in Alertmanager after it was pushed (transitions are events). */
    resolveAfterMinutes: z.number().int().min(1).max(10080).optional(),
  })
  .strict();

/** A generic webhook: `slack` posts a Slack-compatible `{ text }` body, `json` the alert record. */
const WebhookChannelSchema = z
  .object({
    type: z.literal('webhook'),
    url: httpUrl('Webhook url'),
    format: z.enum(['slack', 'json'], { error: 'Webhook format must be "slack" or "json".' }).default('json'),
    name,
    timeoutSeconds,
  })
  .strict();

const AlertChannelSchema = z.discriminatedUnion('type', [AlertmanagerChannelSchema, WebhookChannelSchema], {
  error: 'Channel type must be "alertmanager" or "webhook".',
});

export type AlertChannelConfig = z.output<typeof AlertChannelSchema>;

/** The channel ID the delivery rows are kept under (see channels.ts): two channels may not share one. */
export const alertChannelKey = (c: AlertChannelConfig) => `${c.type}:${c.name ?? c.url}`;

/** A list of channels: at most 20, no two with the same name (or, unnamed, the same type and URL). */
export const AlertChannelListSchema = z
  .array(AlertChannelSchema)
  .max(20, 'At most 20 alert channels.')
  .superRefine((list, ctx) => {
    const seen = new Set<string>();
    list.forEach((c, i) => {
      const key = alertChannelKey(c);
      if (seen.has(key))
        ctx.addIssue({
          code: 'custom',
          path: [i, c.name ? 'name' : 'url'],
          message: c.name ? `Another channel is already named "${c.name}".` : 'This channel is already in the list.',
        });
      seen.add(key);
    });
  });

/**
 * Refuses, at `<path>.<i>.url`, each channel whose URL points at a link-local or cloud metadata address
 * unless `allowed` (Settings' allowLinkLocalAlertTargets, the config's alerts.allowLinkLocal).
 */
export function refuseLinkLocalTargets(
  channels: readonly AlertChannelConfig[],
  allowed: boolean,
  how: AllowHow,
  ctx: z.RefinementCtx,
  path: PropertyKey[],
): void {
  if (allowed) return;
  channels.forEach((c, i) => {
    const refused = refusedAlertUrl(c.url, c.type === 'alertmanager' ? 'Alertmanager url' : 'Webhook url', how);
    if (refused) ctx.addIssue({ code: 'custom', path: [...path, i, 'url'], message: refused });
  });
}

/**
 * A channel's delivery state (Settings → Alert channels, /metrics): `failures` consecutive failed
 * attempts since the last success, `failingSince` and `nextAttemptAt` (epoch ms) while it fails.
 */
export const AlertChannelStateSchema = z.object({
  /** alertChannelKey of its config: how the page finds the row it belongs to. */
  key: z.string(),
  /** The type and name, or the URL's origin (never its path or query). */
  name: z.string(),
  pending: z.number().int().nonnegative(),
  failures: z.number().int().nonnegative(),
  failingSince: z.number().nullable(),
  nextAttemptAt: z.number().nullable(),
  /** The last failure's reason (redacted; no URL path or query). */
  lastError: z.string().nullable(),
});
export type AlertChannelState = z.output<typeof AlertChannelStateSchema>;
