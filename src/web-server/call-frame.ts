/**
 * The page's call frames on the socket (src/shared/web-protocol.ts): `{ call, method, input }` in,
 * `{ reply, response }` out. Every frame is checked strictly; only a frame with a usable id can be
 * answered, so one without is dropped.
 */
import { z } from 'zod';
import { isMonitorMethod, type InvokeResponse, type MonitorMethod } from '../shared/contract';
import type { ErrorInfo } from '../shared/errors';

type CallFrame = { kind: 'call'; id: number; method: MonitorMethod; input: unknown } | { kind: 'bad'; id: number; error: ErrorInfo } | { kind: 'ignore' };

const CallId = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

const CallFrameSchema = z
  .object({
    call: CallId,
    method: z.custom<MonitorMethod>(isMonitorMethod, { message: 'No such API method.' }),
    input: z.unknown().optional(),
  })
  .strict();

const bad = (id: number, message: string, field?: string): CallFrame => ({
  kind: 'bad',
  id,
  error: { kind: 'invalid_input', message, ...(field ? { field } : {}) },
});

export function parseCallFrame(text: string): CallFrame {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { kind: 'ignore' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return { kind: 'ignore' };
  const id = CallId.safeParse((json as { call?: unknown }).call);
  if (!id.success) return { kind: 'ignore' };
  const r = CallFrameSchema.safeParse(json);
  if (r.success) return { kind: 'call', id: r.data.call, method: r.data.method, input: r.data.input };
  const issue = r.error.issues[0];
  if (issue?.code === 'unrecognized_keys') return bad(id.data, 'A call frame has only the fields "call", "method" and "input".');
  return bad(id.data, 'A call frame must name one of the API methods in "method".', 'method');
}

/** The reply frame; a value JSON cannot encode becomes an `internal` error rather than a crash. */
export function replyFrame(id: number, response: InvokeResponse): string {
  try {
    return JSON.stringify({ reply: id, response });
  } catch {
    return JSON.stringify({
      reply: id,
      response: { ok: false, error: { kind: 'internal', message: 'The host could not encode the reply; see the host log.' } },
    });
  }
}
