/**
 * The web server both plain-Node shells use (the web host, and the headless watcher's `--web`): serves the built renderer and the MonitorApi (calls over HTTP or the page's
 * WebSocket, events over the WebSocket; see src/shared/web-protocol.ts) on 127.0.0.1 only. Every
 * API request and socket needs the per-launch token; every request must name this host in Host
 * (DNS rebinding) and, when it sends an Origin, come from this origin (CSRF). Static files are the
 * public app bundle, so they need no token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import type { Duplex } from 'node:stream';
import type { MonitorCore, Logger } from '../core';
import { WEB_EVENTS_PATH, WEB_MAX_BODY_BYTES, WEB_TOKEN_PARAM } from '../shared/web-protocol';
import { toErrorInfo } from '../shared/errors';
import { clientErrorResponse, EXPECTATION_FAILED, MAX_HEADER_BYTES, rawJsonResponse } from '../shared/client-error-reply';
import { requestUrl } from '../shared/request-target';
import { limitSlowClients, slowClientServerOptions } from '../shared/slow-clients';
import { createEventSocket } from './event-socket';
import { pageNotifier } from './page-notifier';
import { callRunner, methodFromPath, parseInvokeBody, readBody } from './invoke-route';
import { bearerToken, cspFromIndexHtml, hostAllowed, newLaunchToken, originAllowed, pinConnectSrc, securityHeaders, tokenMatches } from './security';
import { openStaticStream, resolveStaticFile } from './static-files';

/** The host's error body: `{ error: "<what is wrong>" }`. */
const hostErrorBody = (message: string) => ({ error: message });

interface WebServerOptions {
  /** The core; the host only calls `invoke` and listens to events. */
  core: Pick<MonitorCore, 'invoke' | 'onEvent' | 'attachNotifier'>;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Tests may fix the token; otherwise 256 random bits per launch. */
  token?: string;
  maxBodyBytes?: number;
  logger?: Logger;
}

export interface WebServer {
  /** The address to open, token included. */
  url: string;
  origin: string;
  token: string;
  port: number;
  close(): Promise<void>;
}

const API_PREFIX = '/api/';

export async function startWebServer(options: WebServerOptions): Promise<WebServer> {
  const token = options.token ?? newLaunchToken();
  const maxBody = options.maxBodyBytes ?? WEB_MAX_BODY_BYTES;
  const root = await realpath(options.rendererDir);
  const indexHtml = await readFile(join(root, 'index.html'), 'utf8').catch(() => null);
  const pageCsp = cspFromIndexHtml(indexHtml);
  // Pinned to this server's port once it listens; no request is served before.
  let headers = securityHeaders(pageCsp);
  const log = options.logger;
  const runCall = callRunner(options.core, log);
  const notifier = pageNotifier(options.core);
  const events = createEventSocket({ runCall, maxFrameBytes: maxBody, onPageCount: (n) => notifier.pagesChanged(n) });
  let port = 0;

  const send = (res: ServerResponse, status: number, body: string, type = 'text/plain; charset=utf-8', extra: Record<string, string> = {}) => {
    res.writeHead(status, { ...headers, 'content-type': type, 'content-length': Buffer.byteLength(body), ...extra });
    res.end(body);
  };
  const sendJson = (res: ServerResponse, status: number, value: unknown, extra: Record<string, string> = {}) =>
    send(res, status, JSON.stringify(value), 'application/json; charset=utf-8', { 'cache-control': 'no-store', ...extra });
  /** Every refusal, API or static, carries the same JSON error body. */
  const refuse = (res: ServerResponse, status: number, message: string, extra: Record<string, string> = {}) =>
    sendJson(res, status, hostErrorBody(message), extra);

  async function handleApi(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (!tokenMatches(token, bearerToken(req.headers.authorization))) {
      return refuse(res, 401, 'Missing or wrong launch token: open the URL the host printed.');
    }
    const method = methodFromPath(pathname);
    if (!method) return refuse(res, 404, 'No such API method.');
    if (req.method !== 'POST') return refuse(res, 405, 'Use POST.');
    const body = await readBody(req, maxBody);
    if (!body.ok) return refuse(res, 413, `Request body is larger than ${maxBody} bytes.`);
    const parsed = parseInvokeBody(body.text);
    if (!parsed.ok) return sendJson(res, 200, parsed);
    sendJson(res, 200, await runCall(method, parsed.input));
  }

  async function handleStatic(req: IncomingMessage, res: ServerResponse, pathname: string) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Method not allowed.', { allow: 'GET, HEAD' });
    const file = await resolveStaticFile(root, pathname);
    if (!file) return refuse(res, 404, 'Not found.');
    res.writeHead(200, {
      ...headers,
      'content-type': file.contentType,
      'content-length': file.size,
      'cache-control': file.immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
    if (req.method === 'HEAD') return res.end();
    openStaticStream(file)
      .on('error', () => res.destroy())
      .pipe(res);
  }

  const server = createServer({ maxHeaderSize: MAX_HEADER_BYTES, ...slowClientServerOptions() }, (req, res) => {
    const host = req.headers.host;
    if (!hostAllowed(host, port)) return refuse(res, 403, 'Forbidden: unexpected Host header.');
    if (!originAllowed(req.headers.origin, host)) return refuse(res, 403, 'Forbidden: cross-origin request.');
    const url = requestUrl(req.url);
    if (!url) return refuse(res, 400, 'Bad request: the request target must be a path starting with "/".');
    const pathname = url.pathname;
    const handler = pathname.startsWith(API_PREFIX) ? handleApi : handleStatic;
    handler(req, res, pathname).catch((e: unknown) => {
      log?.error('web host request failed', { path: pathname, error: toErrorInfo(e).message });
      if (!res.headersSent) refuse(res, 500, 'Internal error; see the host log.');
      else res.destroy();
    });
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket) => {
    if (socket.writable) socket.end(clientErrorResponse(err.code, (_status, message) => JSON.stringify(hostErrorBody(message))));
    else socket.destroy();
  });
  server.on('checkExpectation', (_req, res) => refuse(res, 417, EXPECTATION_FAILED));
  limitSlowClients(server);

  const rejectUpgrade = (socket: Duplex, status: number, reason: string) => {
    socket.end(rawJsonResponse(status, JSON.stringify(hostErrorBody(reason))));
  };
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const host = req.headers.host;
    if (!hostAllowed(host, port) || !originAllowed(req.headers.origin, host)) return rejectUpgrade(socket, 403, 'Forbidden');
    const url = requestUrl(req.url);
    if (!url) return rejectUpgrade(socket, 400, 'Bad Request');
    if (url.pathname !== WEB_EVENTS_PATH) return rejectUpgrade(socket, 404, 'Not Found');
    if (!tokenMatches(token, url.searchParams.get(WEB_TOKEN_PARAM))) return rejectUpgrade(socket, 401, 'Unauthorized');
    events.handleUpgrade(req, socket, head);
  });

  const unsubscribe = options.core.onEvent((event) => events.broadcast(event));

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('The web host did not get a TCP port.');
  port = address.port;
  headers = securityHeaders(pinConnectSrc(pageCsp, port));
  const origin = `http://127.0.0.1:${port}`;

  let closing: Promise<void> | null = null;
  return {
    url: `${origin}/?${WEB_TOKEN_PARAM}=${token}`,
    origin,
    token,
    port,
    close() {
      closing ??= (async () => {
        unsubscribe();
        notifier.close();
        await events.close();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeAllConnections();
        });
      })();
      return closing;
    },
  };
}
