/**
 * The web host's wire protocol (src/host serves it, src/renderer's web transport speaks it).
 * - The host prints `http://127.0.0.1:<port>/?token=<launch token>`; the page keeps the token in
 *   sessionStorage and removes it from the address bar.
 * - Calls: `POST /api/invoke/<method>` with JSON body `{ "input": ... }` and header
 *   `authorization: Bearer <token>`; the answer is always HTTP 200 with an InvokeResponse, except
 *   401 (token) / 403 (Host or Origin) / 404 (method) / 413 (body too large) refusals.
 * - Events: WebSocket `ws://127.0.0.1:<port>/api/events?token=<token>`; one JSON MonitorEvent per frame.
 */
export const WEB_INVOKE_PREFIX = '/api/invoke/';
export const WEB_EVENTS_PATH = '/api/events';
export const WEB_TOKEN_PARAM = 'token';
export const WEB_TOKEN_STORAGE_KEY = 'teleporter-watch.token';
export const WEB_MAX_BODY_BYTES = 64 * 1024;
