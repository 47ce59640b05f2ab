/**
 * Who is calling: the key may come in `x-glacier-api-key` (the public API's and its SDKs' name) or
 * `x-service-api-key` (the seed interface's name); both are accepted, neither is ever logged.
 */
import type { IncomingHttpHeaders } from 'node:http';

export const API_KEY_HEADERS = ['x-glacier-api-key', 'x-service-api-key'] as const;
/** The name error messages suggest. */
export const API_KEY_HEADER = API_KEY_HEADERS[0];

type Caller = { kind: 'valid'; key: string } | { kind: 'invalid'; header: string } | { kind: 'missing' };

export function identifyCaller(headers: IncomingHttpHeaders, keys: ReadonlySet<string>): Caller {
  let invalid: string | undefined;
  for (const name of API_KEY_HEADERS) {
    const raw = headers[name];
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (value === undefined) continue;
    if (keys.has(value)) return { kind: 'valid', key: value };
    invalid ??= name;
  }
  return invalid ? { kind: 'invalid', header: invalid } : { kind: 'missing' };
}

export const invalidKeyMessage = (header: string): string => `Invalid API key: the value of the ${header} header does not match a configured key.`;
export const missingKeyMessage = `Missing API key: send it in the ${API_KEY_HEADER} header (${API_KEY_HEADERS[1]} is accepted too).`;
