import { onScopeDispose, ref, watch, type Ref, type WatchSource } from 'vue';

/**
 * True once `source` has stayed true for `delayMs`, false as soon as it turns false: a progress
 * indicator that appears only for slow work, so fast work (a keystroke's search) changes nothing on
 * screen but its result.
 */
export function useDelayedFlag(source: WatchSource<boolean>, delayMs: number): Ref<boolean> {
  const flag = ref(false);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    timer = undefined;
  };
  watch(
    source,
    (on) => {
      if (!on) {
        stop();
        flag.value = false;
      } else if (timer === undefined && !flag.value) {
        timer = setTimeout(() => {
          timer = undefined;
          flag.value = true;
        }, delayMs);
      }
    },
    { immediate: true },
  );
  onScopeDispose(stop);
  return flag;
}
