/** The contract's app area: which program runs the core, its data source, and the embedded demo's personas. */
import type { Network } from '../validators';
import type { DataSource } from './settings';

/** Which program runs the core: the desktop app, the web host, or the headless watcher (whose `--web` serves the same page). */
export type ShellName = 'electron' | 'web' | 'headless';

export interface AppInfo {
  version: string;
  shell: ShellName;
  /** Where data comes from right now. */
  dataSource: { kind: DataSource['kind']; baseUrl: string; network: Network; simulated: boolean };
}

/** How a demo relayer persona of the local service behaves (its `/_local/info`). */
type DemoRelayerBehaviour = 'fast' | 'slow' | 'outage' | 'takeover' | 'steady';

/** A simulated relayer of the embedded demo, with the routes it delivers on (cb58 blockchain IDs). */
export interface DemoRelayer {
  address: string;
  name: string;
  behaviour: DemoRelayerBehaviour;
  description: string;
  routes: { source: string; destination: string }[];
}

/** The embedded demo's busiest addresses and relayers (empty unless the data source is the local service). */
export interface DemoAddresses {
  addresses: string[];
  relayers: DemoRelayer[];
}
