/** Writing JSON replies in the Data API's shapes. */
import { STATUS_CODES, type ServerResponse } from 'node:http';

export type Headers = Record<string, string>;

export function sendJson(res: ServerResponse, status: number, body: string, headers: Headers = {}): void {
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(body);
}

/** `{ message, statusCode, error }`, as the public API answers every non-2xx status. */
export function errorBody(status: number, message: string | string[]): string {
  return JSON.stringify({ message, statusCode: status, error: STATUS_CODES[status] ?? 'Error' });
}

export function sendError(res: ServerResponse, status: number, message: string | string[], headers: Headers = {}): void {
  sendJson(res, status, errorBody(status, message), headers);
}

/** The list response, built from the stored raw JSON without re-encoding each record. */
export function listBody(records: readonly string[], nextPageToken?: string): string {
  const messages = `[${records.join(',')}]`;
  return nextPageToken ? `{"messages":${messages},"nextPageToken":${JSON.stringify(nextPageToken)}}` : `{"messages":${messages}}`;
}
