/**
 * A real stack for host tests: the local service (in-process, so tests can inject faults),
 * the real core on a temp data folder, and the web host, all on 127.0.0.1 with free ports.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { launchWebApp, type WebApp } from '../../src/host/app';
import { startLocalService, type SimulatedService, type SimulatedServiceOptions } from '../../src/local-service';

export const TEST_CSP = "default-src 'self'; script-src 'self'; connect-src 'self'; object-src 'none'";

/** A small built-renderer folder: index.html with a CSP meta tag and one hashed asset. */
export function makeRendererDir(base: string): string {
  const dir = join(base, 'renderer');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><html><head><meta http-equiv="Content-Security-Policy" content="${TEST_CSP}"></head><body><div id="app"></div><script type="module" src="./assets/index-abc123.js"></script></body></html>`,
  );
  writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'document.getElementById("app").textContent = "ok";');
  writeFileSync(join(dir, 'assets', 'index-abc123.css'), 'body { margin: 0 }');
  writeFileSync(join(base, 'outside.txt'), 'must never be served');
  return dir;
}

export interface Stack {
  base: string;
  service: SimulatedService;
  app: WebApp;
  close(): Promise<void>;
}

export async function startStack(serviceOptions: SimulatedServiceOptions = {}, appOptions: { autoPoll?: boolean } = {}): Promise<Stack> {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'tw-host-')));
  const service = await startLocalService({ seed: 7, rate: 0, preload: 40, log: () => {}, ...serviceOptions });
  let app: WebApp;
  try {
    app = await launchWebApp({
      dataDir: join(base, 'data'),
      rendererDir: makeRendererDir(base),
      localService: { kind: 'url', url: service.url },
      keychainService: `teleporter-watch-test-${process.pid}-${Date.now()}`,
      autoPoll: appOptions.autoPoll ?? false,
    });
  } catch (e) {
    await service.close();
    rmSync(base, { recursive: true, force: true });
    throw e;
  }
  return {
    base,
    service,
    app,
    async close() {
      await app.close();
      await service.close();
      rmSync(base, { recursive: true, force: true });
    },
  };
}

/** The file's stack and the web host's port and launch token, once it has started. */
export interface FileStack {
  stack: Stack;
  port: number;
  token: string;
}

/** One stack for the whole test file: started before its tests (its fields are set then, and `ready` called), closed after them. */
export function stackForFile(ready?: (stack: Stack) => void): FileStack {
  const file = {} as FileStack;
  beforeAll(async () => {
    const stack = await startStack();
    Object.assign(file, { stack, port: stack.app.host.port, token: stack.app.host.token });
    ready?.(stack);
  });
  afterAll(() => file.stack?.close());
  return file;
}
