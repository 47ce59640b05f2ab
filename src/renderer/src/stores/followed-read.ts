import { ref, shallowRef, type Ref, type ShallowRef } from 'vue';
import type { MonitorEventType } from '../monitor-events';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import { useMonitorEvents } from '../client';
import { coalesce } from '../logic/coalesce';

export interface FollowedRead<T> {
  /** The last answer (null before the first). */
  value: ShallowRef<T | null>;
  /** Read at least once: from then on the events re-read it. */
  loaded: Ref<boolean>;
  /** The last read's failure (null once a read succeeds). */
  error: Ref<ErrorInfo | null>;
  /** Reads now (one read at most in flight; a call meanwhile waits for it). */
  load: () => Promise<void>;
}

/**
 * One answer of the core a view shows: read when the view opens, then again on each of `events`
 * (until the view was opened there is nothing to keep fresh), one re-read at most in flight.
 */
export function followedRead<T>(read: () => Promise<T>, events: readonly MonitorEventType[]): FollowedRead<T> {
  const value = shallowRef<T | null>(null);
  const loaded = ref(false);
  const error = ref<ErrorInfo | null>(null);
  const load = coalesce(async () => {
    try {
      value.value = await read();
      error.value = null;
      loaded.value = true;
    } catch (e) {
      error.value = toErrorInfo(e);
    }
  });
  const follow = () => {
    if (loaded.value) void load();
  };
  useMonitorEvents(Object.fromEntries(events.map((e) => [e, follow])));
  return { value, loaded, error, load };
}
