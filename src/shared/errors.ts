/**
 * Errors are values with a kind and a message a person can act on. They cross every boundary
 * (core → IPC / web host → renderer) as `{ kind, message, field?, retryAt? }`.
 */
import { z } from 'zod';

export const ERROR_KINDS = [
  'network',
  'timeout',
  'rate_limited',
  'unauthorized',
  'bad_request',
  'not_found',
  'server',
  'invalid_response',
  'invalid_input',
  'keychain_unavailable',
  'internal',
] as const;
export type ErrorKind = (typeof ERROR_KINDS)[number];

/** An error as it crosses a boundary. */
export const ErrorInfoSchema = z.object({
  kind: z.enum(ERROR_KINDS),
  message: z.string(),
  /** The input field at fault, for invalid_input. */
  field: z.string().optional(),
  /** Epoch ms after which a rate-limited call may be retried. */
  retryAt: z.number().optional(),
  /** HTTP status, when the error came from an HTTP response. */
  status: z.number().optional(),
});
export type ErrorInfo = z.output<typeof ErrorInfoSchema>;

export class MonitorError extends Error implements ErrorInfo {
  readonly kind: ErrorKind;
  readonly field?: string;
  readonly retryAt?: number;
  readonly status?: number;
  constructor(info: ErrorInfo) {
    super(info.message);
    this.name = 'MonitorError';
    this.kind = info.kind;
    if (info.field !== undefined) this.field = info.field;
    if (info.retryAt !== undefined) this.retryAt = info.retryAt;
    if (info.status !== undefined) this.status = info.status;
  }
  toInfo(): ErrorInfo {
    return toErrorInfo(this);
  }
}

export const invalidInput = (message: string, field?: string): MonitorError =>
  new MonitorError({ kind: 'invalid_input', message, ...(field ? { field } : {}) });

/** Any thrown value as a plain, serialisable ErrorInfo (internal details stay out of the message). */
export function toErrorInfo(e: unknown): ErrorInfo {
  if (e instanceof MonitorError) {
    const info: ErrorInfo = { kind: e.kind, message: e.message };
    if (e.field !== undefined) info.field = e.field;
    if (e.retryAt !== undefined) info.retryAt = e.retryAt;
    if (e.status !== undefined) info.status = e.status;
    return info;
  }
  if (isErrorInfo(e)) return e;
  return { kind: 'internal', message: e instanceof Error ? e.message : String(e) };
}

export function isErrorInfo(x: unknown): x is ErrorInfo {
  return (
    typeof x === 'object' && x !== null && typeof (x as ErrorInfo).message === 'string' && (ERROR_KINDS as readonly string[]).includes((x as ErrorInfo).kind)
  );
}
