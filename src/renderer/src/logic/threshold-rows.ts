import type { Settings } from '../../../shared/contract';

/** Settings' default relayer and route thresholds and the fuel threshold as the form edits them (null while a field is empty). */
export type ThresholdRows = {
  [K in 'relayerSilentMinutes' | 'relayerPendingMinutes' | 'routeBacklogMinutes' | 'relayerFuelThresholdHours']: Settings[K] | null;
};
