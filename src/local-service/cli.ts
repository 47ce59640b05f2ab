/**
 * `npm run service -- --port <n> ...`: runs the local service until SIGINT/SIGTERM.
 * Prints exactly `listening on http://127.0.0.1:<port>` on stdout once ready (other programs wait for
 * that line); everything else goes to stderr. Also bundled as out/main/local-service.js, so no import.meta.
 */
import { parseCliArgs, USAGE } from './cli-args';
import { startLocalService } from './index';
import { watchParentPipe } from './parent-pipe';

async function main(): Promise<number> {
  // Whatever the service creates (its database, WAL, shared memory) is private to the user.
  process.umask(0o077);
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
  // Signal handlers come first: a parent may signal the moment it reads the listening line, and a
  // signal that arrives before a handler exists would kill the process without closing anything.
  let stopSignal: string | null = null;
  let wake: (() => void) | null = null;
  const onSignal = (signal: string) => {
    stopSignal ??= signal;
    wake?.();
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  // The parent's end of the pipe closes however the parent dies (kill -9 included): no orphan.
  if (args.value.exitWithStdin) {
    watchParentPipe(process.stdin, () => {
      onSignal('stdin closed');
      setTimeout(() => process.exit(0), 5_000).unref(); // should closing hang, still never linger
    });
    // With the parent gone, its ends of stdout/stderr are closed too: a write must not crash the close.
    process.stdout.on('error', () => undefined);
    process.stderr.on('error', () => undefined);
  }

  let service;
  const started = Date.now();
  try {
    service = await startLocalService(options);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const message = err.code === 'EADDRINUSE' ? `port ${options.port} on 127.0.0.1 is already in use; pick another --port or use --port 0.` : err.message;
    process.stderr.write(`error: ${message}\n`);
    return 1;
  }
  if (options.preload || options.history)
    process.stderr.write(`store holds ${service.store.count()} messages; started in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  if (stopSignal === null) {
    process.stdout.write(`listening on ${service.url}\n`);
    await new Promise<void>((resolve) => {
      wake = resolve;
      if (stopSignal !== null) resolve();
    });
  }
  process.stderr.write(`${stopSignal}: stopping\n`);
  await service.close();
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
