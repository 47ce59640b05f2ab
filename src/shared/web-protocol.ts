/**
 * The web host's wire protocol (src/host serves it, src/renderer's web transport speaks it).
 * - The host prints `http://127.0.0.1:<port>/?token=<launch token>`; the page keeps the token in
 *   sessionStorage and removes it from the address bar.
 * - Socket: WebSocket `ws://127.0.0.1:<port>/api/events?token=<token>` (the token is checked at the
 *   upgrade). Every frame is one JSON text frame of at most WEB_MAX_BODY_BYTES (a bigger one closes
 *   that socket with 1009).
 *   - host → page, events: one MonitorEvent `{ "type": ... }` per frame.
 *   - page → host, calls: `{ "call": <id: positive integer>, "method": "<MonitorMethod>", "input": ... }`
 *     (no other fields); the host answers on the same socket with
 *     `{ "reply": <id>, "response": <InvokeResponse> }`. Replies may come out of order; the id pairs
 *     them. A malformed call that carries a usable id is answered with an `invalid_input` error;
 *     one without (or a binary frame) is ignored. The socket stays open either way.
 * - Calls over HTTP (the fallback while the socket is not open, and for any other client):
 *   `POST /api/invoke/<method>` with JSON body `{ "input": ... }` and header
 *   `authorization: Bearer <token>`; the answer is always HTTP 200 with an InvokeResponse, except
 *   401 (token) / 403 (Host or Origin) / 404 (method) / 413 (body too large) refusals.
 * Both call paths run the same code in the host (src/web-server/invoke-route.ts) and answer the same values.
 */
export const WEB_INVOKE_PREFIX = '/api/invoke/';
export const WEB_EVENTS_PATH = '/api/events';
export const WEB_TOKEN_PARAM = 'token';
export const WEB_TOKEN_STORAGE_KEY = 'teleporter-watch.token';
/** Largest HTTP request body and largest page → host socket frame. */
export const WEB_MAX_BODY_BYTES = 64 * 1024;
/** How long the page waits for a reply over the socket before giving up on the call. */
export const WEB_CALL_TIMEOUT_MS = 30_000;
