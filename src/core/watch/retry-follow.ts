/**
 * A delivered message whose execution failed is followed for its retry (`retryMessageExecution`)
 * while it counts for its route's failed-execution alert: the hour after its delivery. Its receipt
 * may be back long before someone retries it, so without this the cache would never read the retry
 * and the alert would hold until the failure aged out of the hour.
 */
import { RETRY_FOLLOW_MS } from '../../shared/policy';

/** Delivered, its execution failed, and delivered within the last hour (destination time, seconds). */
export function awaitsRetry(status: string, raw: Record<string, unknown>, destinationTs: number | null, now: number): boolean {
  return status !== 'pending' && raw.messageExecuted === false && destinationTs !== null && destinationTs * 1000 > now - RETRY_FOLLOW_MS;
}
