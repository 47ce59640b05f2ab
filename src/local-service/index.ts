/**
 * The local service service: a Data API server (server.ts) over one world, the simulator's or your own
 * nodes' (world.ts; compose-world.ts picks it). Its public entry for the CLI, the tests and benchmarks.
 */
export { startLocalService } from './compose-world';
export type { OwnNodesService, RunningService, ServiceOptions, SimulatedService, SimulatedServiceOptions, WorldOptions } from './compose-world';
export type { RecordChange } from './world';
export { PUBLIC_PLANS, OPERATION_WEIGHT, REALISTIC_CU_LIMITS, type CuLimits } from './compute-units';
export { RecordStore } from './store/record-store';
export type { StoreQuery, StorePage, StoreJsonPage } from './store/record-store';
export type { SendOptions, DemoRelayer, RelayerBehaviour, RelayerPersona, RelayerSchedule, RouteRef, Slowdown, TimeSpan } from './compose-world';
export { FAULT_PRESETS, parseFaultSpec } from './faults';
export { API_FAMILIES, API_PREFIXES, type PathFamily } from './api-paths';
export { API_KEY_HEADER, API_KEY_HEADERS } from './api-key';
