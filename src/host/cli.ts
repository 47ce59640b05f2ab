/**
 * `npm run start:web` (and `npm start` where no Electron binary exists): Teleporter Watch in a browser.
 * Prints `Teleporter Watch: http://127.0.0.1:<port>/?token=<token>` and runs until SIGINT/SIGTERM,
 * then closes the web host, the core and the local service child process.
 */
import type { AppInfo } from '../shared/contract';
import { launchWebApp, type WebApp } from './app';
import { HOST_USAGE, parseHostArgs } from './cli-args';
import { openBrowser } from './open-browser';
import { ensureRendererBuilt } from './renderer-build';

const say = (line: string) => console.log(`Teleporter Watch: ${line}`);

async function main(): Promise<void> {
  const options = parseHostArgs(process.argv.slice(2));
  if (options.help) {
    console.log(HOST_USAGE);
    return;
  }
  const rendererDir = await ensureRendererBuilt();
  let app: WebApp | null = null;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    say(`${signal}: shutting down...`);
    // A second signal, or a hung close, must not leave the user stuck.
    setTimeout(() => process.exit(1), 10_000).unref();
    void (app?.close() ?? Promise.resolve()).then(
      () => process.exit(0),
      (e: unknown) => {
        console.error(`Teleporter Watch: shutdown failed: ${(e as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  app = await launchWebApp({ dataDir: options.dataDir, rendererDir, port: options.port, ...(options.source ? { source: options.source } : {}) });
  if (stopping) return void (await app.close());
  const info = await app.core.invoke('getAppInfo', undefined);
  say(app.host.url);
  if (info.ok) {
    const { dataSource } = info.value as AppInfo;
    say(`data from ${dataSource.baseUrl}${dataSource.simulated ? ' (simulated demo data from the local service)' : ''}; data folder ${options.dataDir}`);
  }
  say('press Ctrl+C to stop.');
  if (options.open) openBrowser(app.host.url, (msg) => say(msg));
}

main().catch((e: unknown) => {
  console.error(`Teleporter Watch: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
