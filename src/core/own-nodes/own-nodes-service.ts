/**
 * The local service in "your own nodes" mode, as a child process: started with the saved chains
 * (written to <dataDir>/own-nodes.json, private to the user) and its own store file
 * (<dataDir>/own-nodes.sqlite, apart from the demo's); started again when the chains change.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OwnNodes } from '../../shared/own-nodes';
import type { Logger } from '../log/logger';
import type { LocalServiceSpec } from '../monitor-core';
import { LocalServiceLauncher } from '../local-service/launcher';
import type { OwnNodeStatus } from '../../shared/own-nodes';
import { readOwnNodeStatuses } from './own-node-statuses';

const OWN_NODES_CONFIG_FILE = 'own-nodes.json';
const OWN_NODES_DB_FILE = 'own-nodes.sqlite';

export class OwnNodesService {
  private launcher: LocalServiceLauncher | null = null;
  private running: string | null = null;
  private latest: OwnNodeStatus[] | null = null;

  constructor(
    private readonly spec: Extract<LocalServiceSpec, { kind: 'spawn' }>,
    private readonly dataDir: string,
    private readonly logger: Logger,
    /** Called each time the service starts listening. */
    private readonly onReady: () => void = () => undefined,
  ) {}

  url(): string | null {
    return this.launcher?.url() ?? null;
  }

  /** Runs the service for these chains (a no-op when it already does). */
  async ensure(config: OwnNodes): Promise<void> {
    const text = JSON.stringify(config);
    if (text === this.running && this.launcher) return;
    await this.stop();
    const file = join(this.dataDir, OWN_NODES_CONFIG_FILE);
    writeFileSync(file, text, { mode: 0o600 });
    this.running = text;
    const spec = { ...this.spec, args: [...this.spec.args, '--own-nodes', file, '--history', '0'] };
    this.launcher = new LocalServiceLauncher(spec, this.dataDir, this.logger, this.onReady, OWN_NODES_DB_FILE);
    await this.launcher.start();
  }

  /** Each chain's status as last read (null while the service is not running). */
  statuses(): OwnNodeStatus[] | null {
    return this.launcher ? this.latest : null;
  }

  /** Reads each chain's status from the service again. */
  async refresh(): Promise<void> {
    this.latest = this.launcher ? ((await readOwnNodeStatuses(this.url())) ?? this.latest) : null;
  }

  async stop(): Promise<void> {
    this.latest = null;
    const l = this.launcher;
    this.launcher = null;
    this.running = null;
    await l?.close();
  }
}
