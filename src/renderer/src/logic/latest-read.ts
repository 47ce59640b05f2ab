import type { Ref } from 'vue';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';

/**
 * A store's reads of which only the newest counts: an answer is applied only when no read started
 * after it (a slow earlier answer never overwrites a newer one), and `loading` and `error` follow the
 * newest read. `drop()` makes the reads in flight stale without starting one.
 */
export function latestRead(loading: Ref<boolean>, error: Ref<ErrorInfo | null>) {
  let seq = 0;
  return {
    async run<T>(read: () => Promise<T>, apply: (answer: T) => void): Promise<void> {
      const my = ++seq;
      loading.value = true;
      try {
        const answer = await read();
        if (my !== seq) return;
        apply(answer);
        error.value = null;
      } catch (e) {
        if (my === seq) error.value = toErrorInfo(e);
      } finally {
        if (my === seq) loading.value = false;
      }
    },
    drop(): void {
      seq++;
    },
  };
}
