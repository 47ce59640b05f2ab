/**
 * Node's HTTP parser refuses some requests before any handler runs (its `clientError` event): a raw
 * non-ASCII byte in the target, a header block over the size limit, a bad header token. The servers
 * answer those with their own JSON error body, as raw HTTP/1.1 text on the socket, then close it.
 */

/** The status and a plain reason for a parser error code (llhttp's `HPE_*`, Node's `ERR_HTTP_*`). */
function clientErrorStatus(code: string | undefined): { status: number; message: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: 431, message: 'Request header fields too large: the request line and headers must fit in 16 KiB.' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
    case 'HPE_HEADERS_TIMEOUT':
      return { status: 408, message: 'Request timeout: the request was not received in time.' };
    case 'HPE_INVALID_URL':
      return { status: 400, message: 'Bad request: the request target has a character that is not allowed in a URL (percent-encode it).' };
    case 'HPE_INVALID_HEADER_TOKEN':
      return { status: 400, message: 'Bad request: a header name or value has a character that is not allowed.' };
    default:
      return { status: 400, message: 'Bad request: the request is not valid HTTP/1.1.' };
  }
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** A complete HTTP/1.1 response carrying a JSON body, closing the connection. */
export function rawJsonResponse(status: number, json: string, extraHeaders: Record<string, string> = {}): string {
  const bytes = new TextEncoder().encode(json).length;
  const head = [
    `HTTP/1.1 ${status} ${REASONS[status] ?? 'Error'}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${bytes}`,
    'cache-control: no-store',
    ...Object.entries(extraHeaders).map(([k, v]) => `${k}: ${v}`),
    'connection: close',
  ];
  return `${head.join('\r\n')}\r\n\r\n${json}`;
}

/** The whole raw response to a refused request, with the server's own JSON error body. */
export function clientErrorResponse(code: string | undefined, bodyOf: (status: number, message: string) => string): string {
  const { status, message } = clientErrorStatus(code);
  return rawJsonResponse(status, bodyOf(status, message));
}

export const EXPECTATION_FAILED = 'Expectation failed: only "Expect: 100-continue" is supported.';

/** Request line plus headers the servers accept (Node's default, fixed so a runtime flag cannot raise it). */
export const MAX_HEADER_BYTES = 16 * 1024;
