import type { SourceHealth } from '../../../shared/source-health';
import { clockTime } from '../../../shared/format';
import { sourceName } from '../../../shared/sources';

/**
 * A source's health in words: a short label, a tag colour, and the sentence that says since when and why.
 * `watching`: how many watches the poller reads for (none: nothing is polled, so nothing is read yet).
 */
export function healthWords(h: SourceHealth, watching = 1): { label: string; type: 'success' | 'warning' | 'error' | 'default'; detail: string } {
  const name = sourceName(h.source);
  const held = h.seeing ? '' : ' Relayer, route, fuel and stuck alerts are held until it is read (and caught up) again.';
  if (h.state === 'down')
    return { label: 'down', type: 'error', detail: `Can't read ${name}${h.since ? ` since ${clockTime(h.since)}` : ''}: ${h.reason ?? ''}.${held}` };
  if (h.state === 'degraded') return { label: 'degraded', type: 'warning', detail: `${name} is read later than usual: ${h.reason ?? ''}.${held}` };
  if (h.state === 'unknown' && watching === 0)
    return {
      label: 'nothing watched yet',
      type: 'default',
      detail: `${name} is polled once something is watched (an address, a feed, a route or a relayer's routes).`,
    };
  if (h.state === 'unknown')
    return { label: 'not read yet', type: 'default', detail: `${name} has not been read yet since the start or the switch to it.${held}` };
  return { label: 'up', type: 'success', detail: `${name} is read${h.since ? ` (since ${clockTime(h.since)})` : ''}.${held}` };
}
