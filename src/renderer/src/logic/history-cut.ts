import { BASELINE_MAX_PAGES } from '../../../shared/policy';

const clock = (ms: number) => new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

/** The words of a watch whose first read stopped at its page cap (docs/limits.md, BASELINE_MAX_PAGES). */
export function historyCutWords(cutAtMs: number): { label: string; title: string } {
  const at = clock(cutAtMs);
  return {
    label: `history from ${at}`,
    title:
      `Its first read takes at most ${BASELINE_MAX_PAGES} pages and stopped at messages sent at ${at}: ` +
      `older ones still open are not followed (their delivery, receipt or stuck is not reported).`,
  };
}
