/**
 * /metrics answers only Host names that mean this machine: a DNS-rebinding page (its own name resolving
 * to 127.0.0.1) cannot read the watch labels, even with no bearer token configured. A real watcher over
 * a real local service; the requests go over raw sockets so the Host header is exactly as written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HeadlessWatcher } from '../../src/headless/watcher';
import { splitHost } from '../../src/headless/metrics-host';
import { sendRaw } from '../support/raw-http';
import { baseConfig, startWatcher, tempDir, type Service } from './rig';
import { startLocalService } from '../../src/local-service';

let svc: Service;
let watcher: HeadlessWatcher;
let port: number;

beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 5, log: () => {} });
  watcher = await startWatcher(tempDir('tw-metrics-host-'), baseConfig(svc.url));
  port = Number(new URL(watcher.metrics!.url).port);
});
afterAll(async () => {
  await watcher?.close();
  await svc?.close();
});

const get = (hostLine: string | null, path = '/metrics') =>
  sendRaw(port, `GET ${path} HTTP/1.1\r\n${hostLine === null ? '' : `Host: ${hostLine}\r\n`}Connection: close\r\n\r\n`);

describe('/metrics Host check', () => {
  it('answers the loopback names with its own port', async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `LOCALHOST:${port}`, `[::1]:${port}`, `localhost.:${port}`]) {
      const r = await get(host);
      expect(r.status, host).toBe(200);
      expect(r.body).toMatch(/^teleporter_watch_watchers 1$/m);
    }
  });

  it('refuses a rebinding name, another port, a malformed or missing Host with 403 and no figures', async () => {
    for (const host of [
      `evil.example:${port}`,
      `127.0.0.1.evil.example:${port}`,
      `localhost.evil.example:${port}`,
      'evil.example',
      `127.0.0.1:${port + 1}`,
      '127.0.0.1',
      `127.0.0.1:${port}@evil.example`,
      `[::1:${port}`,
      '',
      null,
    ]) {
      const r = await get(host);
      expect(r.status, String(host)).toBe(host === null ? 400 : 403);
      expect(r.body).not.toMatch(/teleporter_watch_/);
    }
  });

  it('keeps /healthz open to any Host (it tells nothing)', async () => {
    expect((await get(`evil.example:${port}`, '/healthz')).status).toBe(200);
  });

  it('reads Host headers as name and port', () => {
    expect(splitHost('LocalHost:9464')).toEqual({ name: 'localhost', port: 9464 });
    expect(splitHost('[::1]:9464')).toEqual({ name: '::1', port: 9464 });
    expect(splitHost('example.com.')).toEqual({ name: 'example.com', port: null });
    expect(splitHost('a:b:c')).toBeNull();
    expect(splitHost('x:99999999')).toBeNull();
  });
});
