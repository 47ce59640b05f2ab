/** The contract's app area: which program runs the core, its data source, and the embedded demo's personas. */
import { z } from 'zod';
import { network } from '../schemas';
import { DataSourceKindSchema } from './settings';
import { EPISODE_KINDS } from '../vocabulary';

/** Which program runs the core: the desktop app, the web host, or the headless watcher (whose `--web` serves the same page). */
const shellName = z.enum(['electron', 'web', 'headless']);
export type ShellName = z.output<typeof shellName>;

export const AppInfoSchema = z.object({
  version: z.string(),
  shell: shellName,
  /** Where data comes from right now. */
  dataSource: z.object({ kind: DataSourceKindSchema, baseUrl: z.string(), network, simulated: z.boolean() }),
});
export type AppInfo = z.output<typeof AppInfoSchema>;

/** The local cache's figures by the data source they came from: the current one's, and what earlier sources left. */
export const CacheSourcesSchema = z.object({
  /** The current data source's key (src/shared/sources.ts) and its name in words. */
  current: z.string(),
  currentName: z.string(),
  /** Other sources whose messages the cache still holds (until retention lets them go): shown marked, never counted as the current one's. */
  others: z.array(
    z.object({
      source: z.string(),
      name: z.string(),
      messages: z.number().int().nonnegative(),
      /** The last time that source showed one of them (ms): its figures are "as of" then. */
      asOf: z.number(),
    }),
  ),
});
export type CacheSources = z.output<typeof CacheSourcesSchema>;

/** A simulated relayer of the embedded demo, with the routes it delivers on (cb58 blockchain IDs). */
const DemoRelayerSchema = z.object({
  address: z.string(),
  name: z.string(),
  /** How the persona of the local service behaves (its `/_local/info`). */
  behaviour: z.enum(['fast', 'slow', 'outage', 'takeover', 'steady']),
  description: z.string(),
  routes: z.array(z.object({ source: z.string(), destination: z.string() })),
  /** The alert kinds watching it with its routes shows in the demo's first minutes (absent: none said). */
  shows: z.array(z.enum(EPISODE_KINDS)).optional(),
});
export type DemoRelayer = z.output<typeof DemoRelayerSchema>;

/** The embedded demo's busiest addresses and relayers (empty unless the data source is the local service). */
export const DemoAddressesSchema = z.object({
  addresses: z.array(z.string()),
  relayers: z.array(DemoRelayerSchema),
});
export type DemoAddresses = z.output<typeof DemoAddressesSchema>;
