/** Writing JSON replies in the Data API's shapes. */
import { STATUS_CODES, type ServerResponse } from 'node:http';

export type Headers = Record<string, string>;

/** A body is a string or parts sent in order (parts are written, never concatenated). */
export type Body = string | readonly (string | Buffer)[];

export function sendJson(res: ServerResponse, status: number, body: Body, headers: Headers = {}): void {
  const length = typeof body === 'string' ? Buffer.byteLength(body) : body.reduce((n, b) => n + (typeof b === 'string' ? Buffer.byteLength(b) : b.length), 0);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(length),
    'cache-control': 'no-store',
    ...headers,
  });
  if (typeof body === 'string') return void res.end(body);
  // Corked: the header and all parts leave in one writev, without copying the parts together.
  res.cork();
  for (let i = 0; i < body.length - 1; i++) res.write(body[i]);
  res.end(body[body.length - 1]);
}

/** `{ message, statusCode, error }`, as the public API answers every non-2xx status. */
export function errorBody(status: number, message: string | string[]): string {
  return JSON.stringify({ message, statusCode: status, error: STATUS_CODES[status] ?? 'Error' });
}

export function sendError(res: ServerResponse, status: number, message: string | string[], headers: Headers = {}): void {
  sendJson(res, status, errorBody(status, message), headers);
}

const LIST_HEAD = Buffer.from('{"messages":[');
const LIST_END = Buffer.from(']}');
const COMMA = Buffer.from(',');

/**
 * The list response around the store's pieces of joined records (see RecordStore.pageJson), as
 * parts written in order: the records are never copied into one large string or buffer (a large one
 * per request made V8 run a full GC every couple of hundred requests, pausing the service for 2-10 ms).
 */
export function listBody(pieces: readonly string[], nextPageToken?: string): (string | Buffer)[] {
  const parts: (string | Buffer)[] = [LIST_HEAD];
  pieces.forEach((p, i) => (i === 0 ? parts.push(p) : parts.push(COMMA, p)));
  parts.push(nextPageToken ? `],"nextPageToken":${JSON.stringify(nextPageToken)}}` : LIST_END);
  return parts;
}
