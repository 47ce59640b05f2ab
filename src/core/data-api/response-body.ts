/** Reading 2xx bodies of the Data API: a list page or one message, with errors a person can act on. */
import { z } from 'zod';
import type { MessagePage } from '../../shared/contract';
import type { ErrorInfo } from '../../shared/errors';
import { parseMessage, type TeleporterMessage } from '../../shared/messages';
import { recordSkip, skipReasonText, type RecordSkip } from '../../shared/record-bounds';

/** An answer, or the error it was; `skipped`: the one record asked for by ID, skipped at the boundary (never retried). */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ErrorInfo; skipped?: RecordSkip };

const invalid = (message: string): ApiResult<never> => ({ ok: false, error: { kind: 'invalid_response', message } });

function json(text: string, host: string): { ok: true; value: unknown } | { ok: false; result: ApiResult<never> } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false, result: invalid(`${host} sent a response that is not JSON. Retrying; if it persists the base URL may point at the wrong service.`) };
  }
}

const typeName = (v: unknown): string => (v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`);

/** A list page as the Data API sends it: its records are parsed one by one after this (a bad record never sinks the page); other fields are kept. */
const ListEnvelopeSchema = z.looseObject({
  messages: z.array(z.unknown()),
  nextPageToken: z.string().nullish(),
});

export function parseListBody(text: string, host: string, now: number): ApiResult<MessagePage> {
  const parsed = json(text, host);
  if (!parsed.ok) return parsed.result;
  const envelope = ListEnvelopeSchema.safeParse(parsed.value);
  if (!envelope.success) {
    // A body whose only fault is the token's type (it has its messages list): said so, with the value.
    if (envelope.error.issues.every((i) => i.path[0] === 'nextPageToken')) {
      const token = (parsed.value as { nextPageToken: unknown }).nextPageToken;
      return invalid(
        `${host} sent nextPageToken as ${typeName(token)} (${JSON.stringify(token).slice(0, 40)}); the Data API sends a string. Retrying; if it persists the base URL may point at a service that is not the Data API.`,
      );
    }
    return invalid(`${host} sent a response without a messages list. Retrying; if it persists check the base URL.`);
  }
  const body = envelope.data;
  const token = body.nextPageToken;
  const messages: TeleporterMessage[] = [];
  const skipped: RecordSkip[] = [];
  // A record out of bounds is skipped; the rest of its page is used, and the page token still moves on.
  for (const raw of body.messages) {
    const skip = recordSkip(raw, now);
    const m = skip ? null : parseMessage(raw);
    if (m) messages.push(m);
    else skipped.push(skip ?? { reason: 'malformed', field: 'messageId', messageId: null });
  }
  const page: MessagePage = { messages, rejected: skipped.length, fetchedAt: now };
  if (skipped.length) page.skipped = skipped;
  if (token) page.nextPageToken = token;
  return { ok: true, value: page };
}

export function parseMessageBody(text: string, host: string, now: number): ApiResult<TeleporterMessage> {
  const parsed = json(text, host);
  if (!parsed.ok) return parsed.result;
  const skip = recordSkip(parsed.value, now);
  const m = skip ? null : parseMessage(parsed.value);
  if (m) return { ok: true, value: m };
  // No record with an ID at all (an error page, another shape): a bad answer, retried as before.
  if (!skip || skip.messageId === null) return invalid(`${host} sent a message without a usable messageId. Check the base URL.`);
  return {
    ok: false,
    error: {
      kind: 'invalid_response',
      message: `${host} sent message ${skip.messageId} with ${skip.field} out of bounds (${skipReasonText(skip.reason)}): it is skipped and never stored. If it persists, the data source is sending records no Data API sends.`,
    },
    skipped: skip,
  };
}
