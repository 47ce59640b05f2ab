import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import type { AppInfo, PollStatus } from '../../../shared/contract';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { clock, monitor, useMonitorEvents } from '../client';
import type { ConnectionInfo } from '../transport/web-transport';

/** Always-visible state: app info (shell, data source), poll status, the web socket's connection, "now". */
export const useStatusStore = defineStore('status', () => {
  const appInfo = ref<AppInfo | null>(null);
  const poll = ref<PollStatus | null>(null);
  const connection = ref<ConnectionInfo>({ state: 'open', retryAt: null, attempts: 0 });
  const error = ref<ErrorInfo | null>(null);
  const pollingNow = ref(false);
  /** Ticks once a second so relative times stay fresh without each row running a timer. */
  const now = ref(clock().now());

  const simulated = computed(() => appInfo.value?.dataSource.simulated === true);
  const shell = computed(() => appInfo.value?.shell ?? 'web');
  const rateLimitedUntil = computed(() => {
    const p = poll.value;
    return p && p.rateLimitedUntil !== null && p.rateLimitedUntil > now.value ? p.rateLimitedUntil : null;
  });

  async function load(): Promise<void> {
    try {
      const [info, status] = await Promise.all([monitor().getAppInfo(), monitor().getPollStatus()]);
      appInfo.value = info;
      poll.value = status;
      error.value = null;
    } catch (e) {
      error.value = toErrorInfo(e);
    }
  }

  async function pollNow(): Promise<void> {
    pollingNow.value = true;
    try {
      poll.value = await monitor().pollNow();
      error.value = null;
    } catch (e) {
      error.value = toErrorInfo(e);
    } finally {
      pollingNow.value = false;
    }
  }

  useMonitorEvents({ 'poll-status': (e) => (poll.value = e.status) });

  /** Shown in the status bar; the connection owner (connection.ts) sets it and resynchronises on reconnect. */
  function setConnection(c: ConnectionInfo): void {
    connection.value = c;
  }

  let stopTicker: (() => void) | null = null;
  function startTicker(): void {
    if (stopTicker) return;
    const tick = () => {
      now.value = clock().now();
      stopTicker = clock().setTimer(tick, 1000);
    };
    tick();
  }
  function stopTicking(): void {
    stopTicker?.();
    stopTicker = null;
  }

  return {
    appInfo,
    poll,
    connection,
    error,
    pollingNow,
    now,
    simulated,
    shell,
    rateLimitedUntil,
    load,
    /** App info (which data source, simulated or not) and the poll status, read again. */
    resync: load,
    pollNow,
    setConnection,
    startTicker,
    stopTicking,
  };
});
