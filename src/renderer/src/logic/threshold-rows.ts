import type { Settings } from '../../../shared/contract';

/** Settings' default relayer and route thresholds as the form edits them (null while a field is empty). */
export type ThresholdRows = { [K in 'relayerSilentMinutes' | 'relayerPendingMinutes' | 'routeBacklogMinutes']: Settings[K] | null };
