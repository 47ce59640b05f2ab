import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { MonitorError } from '../../shared/errors';
import { privateFile } from '../store/private-files';
import { serviceChildEnv } from './child-env';
import type { Logger } from '../log/logger';
import type { LocalServiceSpec } from '../monitor-core';

const LISTENING_RE = /listening on (http:\/\/127\.0\.0\.1:\d+)/;
const START_TIMEOUT_MS = 30_000;
const RESTART_DELAYS_MS = [500, 1_000, 2_000, 5_000, 10_000];
/** Hours of past traffic the embedded demo starts with on a fresh data folder (unless the spec says). */
const DEMO_HISTORY_HOURS = 2;

/**
 * Runs the embedded local service as a child process: waits for its "listening on <url>"
 * line, restarts it when it crashes (its URL may change), and kills it on close.
 */
export class LocalServiceLauncher {
  private child: ChildProcess | null = null;
  private currentUrl: string | null = null;
  private closing = false;
  private restarts = 0;
  private starting: Promise<string> | null = null;

  constructor(
    private readonly spec: Extract<LocalServiceSpec, { kind: 'spawn' }>,
    private readonly dataDir: string,
    private readonly logger: Logger,
    private readonly onUrl: (url: string) => void = () => {},
    /** The service's store file in the data folder (own nodes keep theirs apart from the demo's). */
    private readonly dbFile = 'local-service.sqlite',
  ) {}

  url(): string | null {
    return this.currentUrl;
  }

  start(): Promise<string> {
    this.starting ??= this.spawnOnce().finally(() => {
      this.starting = null;
    });
    return this.starting;
  }

  private spawnOnce(): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      const history = this.spec.args.includes('--history') ? [] : ['--history', String(DEMO_HISTORY_HOURS)];
      // The demo shows a relayer running low on gas (issue 31): one demo wallet runs dry between refills.
      const dryWallet = this.spec.args.some((a) => a === '--dry-wallet' || a === '--no-dry-wallet') ? [] : ['--dry-wallet'];
      // The demo day (issue 43): each alert kind happens and ends in the first minutes, nothing held for good.
      const demoDay = this.spec.args.some((a) => a === '--demo-day' || a === '--no-demo-day') ? [] : ['--demo-day'];
      // --exit-with-stdin: the child watches our end of its stdin pipe, which the kernel closes
      // however this process dies (kill -9 included), so the service never outlives us.
      const db = join(this.dataDir, this.dbFile);
      try {
        privateFile(db); // an older 0644 file narrowed to 0600 before the child opens it (its -wal/-shm follow)
      } catch (e) {
        this.logger.warn('could not make the local service database private', { error: e }); // the child still creates it 0600 (umask 077)
      }
      const args = [...this.spec.args, ...history, ...dryWallet, ...demoDay, '--port', '0', '--db', db, '--exit-with-stdin'];
      const child = spawn(this.spec.command, args, { env: serviceChildEnv(process.env, this.spec.env), stdio: ['pipe', 'pipe', 'pipe'] });
      child.stdin?.on('error', () => undefined); // EPIPE once the child has gone
      this.child = child;
      let settled = false;
      let buffer = '';
      const timer = setTimeout(() => {
        if (settled) return;
        settled = true;
        child.kill('SIGKILL');
        reject(new MonitorError({ kind: 'network', message: `The local service did not start within ${START_TIMEOUT_MS / 1000} s (no "listening on" line).` }));
      }, START_TIMEOUT_MS);
      child.stdout?.setEncoding('utf8');
      child.stdout?.on('data', (chunk: string) => {
        buffer = (buffer + chunk).slice(-4096);
        const m = LISTENING_RE.exec(buffer);
        if (m && !settled) {
          settled = true;
          clearTimeout(timer);
          this.currentUrl = m[1] as string;
          this.restarts = 0;
          this.logger.info('local service listening', { url: this.currentUrl, pid: child.pid });
          this.onUrl(this.currentUrl);
          resolve(this.currentUrl);
        }
      });
      child.stderr?.setEncoding('utf8');
      child.stderr?.on('data', (chunk: string) => this.logger.debug('local service stderr', { text: chunk.slice(0, 500) }));
      child.on('error', (e) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        reject(new MonitorError({ kind: 'network', message: `Could not start the local service (${e.message}).` }));
      });
      child.on('exit', (code, signal) => {
        clearTimeout(timer);
        if (this.child === child) this.child = null;
        if (!settled) {
          settled = true;
          reject(new MonitorError({ kind: 'network', message: `The local service exited before listening (code ${code ?? signal}).` }));
        }
        if (this.closing) return;
        this.currentUrl = null;
        const delay = RESTART_DELAYS_MS[Math.min(this.restarts, RESTART_DELAYS_MS.length - 1)] as number;
        this.restarts++;
        this.logger.warn('local service stopped; restarting', { code, signal, delayMs: delay });
        // Real time on purpose: this is a real child process, not simulated time.
        setTimeout(() => {
          if (!this.closing) this.start().catch((e: unknown) => this.logger.error('local service restart failed', { error: e }));
        }, delay);
      });
    });
  }

  async close(): Promise<void> {
    this.closing = true;
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 3_000);
      child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }

  /** For tests: the child's pid. */
  pid(): number | undefined {
    return this.child?.pid;
  }
}
