/**
 * `npm run service -- --port <n> ...`: runs the local teleporter service until SIGINT/SIGTERM.
 * Prints exactly `listening on http://127.0.0.1:<port>` on stdout once ready (other programs wait for
 * that line); everything else goes to stderr. Also bundled as out/main/service.js, so no import.meta.
 */
import { parseCliArgs, USAGE } from './cli-args';
import { startTeleporterService } from './index';

async function main(): Promise<number> {
  const args = parseCliArgs(process.argv.slice(2));
  if (!args.ok) {
    process.stderr.write(`error: ${args.error}\n\n${USAGE}\n`);
    return 2;
  }
  if (args.value.help) {
    process.stdout.write(USAGE + '\n');
    return 0;
  }
  const options = args.value.options;
  let service;
  const started = Date.now();
  try {
    service = await startTeleporterService(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const message = err.code === 'EADDRINUSE' ? `port ${options.port} on 127.0.0.1 is already in use; pick another --port or use --port 0.` : err.message;
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
  if (options.preload) process.stderr.write(`preloaded ${options.preload} messages in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  process.stdout.write(`listening on ${service.url}\n`);
  const running = service;
  await new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      process.stderr.write(`${signal}: stopping\n`);
      void running.close().then(resolve);
    };
    process.once('SIGINT', () => stop('SIGINT'));
    process.once('SIGTERM', () => stop('SIGTERM'));
  });
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
