import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';

export type FieldErrors = Record<string, string>;

/**
 * Splits a failure into a field error (shown at the field) or a general error (shown as an alert).
 * `fieldMap` renames contract field paths (e.g. `sourceBlockchainId`) to form field names (`source`).
 */
export function splitError(e: unknown, fieldMap: Record<string, string> = {}): { fields: FieldErrors; general: ErrorInfo | null } {
  const info = toErrorInfo(e);
  if (info.kind === 'invalid_input' && info.field) {
    const top = info.field.split('.')[0] ?? info.field;
    const name = fieldMap[info.field] ?? fieldMap[top] ?? info.field;
    return { fields: { [name]: info.message }, general: null };
  }
  return { fields: {}, general: info };
}

/** Messages that already say what to do (the core's network and timeout errors do): no second hint. */
const ALREADY_ADVISES = /\b(settings|retry|retrying|resumes)\b/i;

/** What to do next, by error kind: appended to error alerts unless the message already says it. */
export function nextStep(info: ErrorInfo): string {
  if ((info.kind === 'network' || info.kind === 'timeout' || info.kind === 'unauthorized') && ALREADY_ADVISES.test(info.message)) return '';
  switch (info.kind) {
    case 'rate_limited':
      return info.retryAt
        ? `Try again after ${new Date(info.retryAt).toLocaleTimeString()}, or add an API key in Settings.`
        : 'Wait a minute, or add an API key in Settings.';
    case 'unauthorized':
      return 'Check the API key in Settings.';
    case 'network':
    case 'timeout':
      return 'Check the data source in Settings and your connection; the monitor keeps retrying.';
    case 'server':
      return 'The data source failed; try again in a moment.';
    case 'keychain_unavailable':
      return 'The key is kept for this session only; see Settings for how to enable the keychain.';
    default:
      return '';
  }
}
