/**
 * In the web host the open pages are the notifier: a notification is delivered once a page can show
 * it (the core then emits it, and the event socket carries it to every page). While no page is open,
 * no notifier is attached, so the core's outbox keeps everything and shows it, coalesced when there
 * are many, as soon as a page connects.
 */
import type { MonitorCore } from '../core';

interface PageNotifier {
  /** The event socket's page count changed. */
  pagesChanged(count: number): void;
  close(): void;
}

export function pageNotifier(core: Pick<MonitorCore, 'attachNotifier'>): PageNotifier {
  let pages = 0;
  let detach: (() => void) | null = null;
  const notify = () => {
    if (pages === 0) throw new Error('No page is open to show the notification.');
  };
  return {
    pagesChanged(count) {
      pages = count;
      if (count > 0 && !detach) detach = core.attachNotifier(notify);
      else if (count === 0 && detach) {
        detach();
        detach = null;
      }
    },
    close() {
      detach?.();
      detach = null;
    },
  };
}
