/** Requests Node answers by itself, before any handler runs, get the Data API's JSON error body too. */
import type { Server } from 'node:http';
import { clientErrorResponse, EXPECTATION_FAILED } from '../shared/client-error-reply';
import { errorBody, sendError } from './http-replies';

export function guardRawRequests(server: Server): void {
  // Node's parser refused the request (bad byte in the target, headers over the limit): not a bare 400/431.
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (socket.writable) socket.end(clientErrorResponse(err.code, errorBody));
    else socket.destroy();
  });
  // An Expect header other than 100-continue: Node's own 417 has an empty body.
  server.on('checkExpectation', (_req, res) => {
    res.shouldKeepAlive = false;
    sendError(res, 417, EXPECTATION_FAILED);
  });
}
