import type { Settings } from '../../../shared/contract';

/** Settings' default relayer and route thresholds, the fuel and failed-execution thresholds as the form edits them (null while a field is empty). */
export type ThresholdRows = {
  [
    K in
      | 'relayerSilentMinutes'
      | 'relayerPendingMinutes'
      | 'routeBacklogMinutes'
      | 'relayerFuelThresholdHours'
      | 'routeFailedExecutionsPerHour'
      | 'relayerClaimExcess'
      | 'relayerFailuresInWindow'
  ]: Settings[K] | null;
};
