/**
 * Issue 41: a label with CR LF and a bidi override reached /metrics raw (prom-client escapes LF, `\`
 * and `"`, not CR or U+202E) and the alerts as they were. The real watcher over the real local
 * service, a real webhook receiver, /metrics scraped and checked by Debian's promtool.
 */
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalService } from '../../src/local-service';
import { waitFor } from '../support/wait-for';
import { missing, PROMTOOL } from './engines';
import { baseConfig, pollNow, sendWatched, startReceiver, startWatcher, tempDir, WATCHED, type Service } from './rig';

const LABEL = 'tre\u202Easury\r\n# forged line\u2066\u009B';
const SHOWN = 'tre<U+202E>asury<U+000D><U+000A># forged line<U+2066><U+009B>';

let svc: Service;
beforeAll(async () => {
  svc = await startLocalService({ rate: 0, seed: 12 });
});
afterAll(async () => {
  await svc.close();
});

describe('a hostile label on its way out', () => {
  it('reaches the webhook and /metrics with its hidden characters shown, and /metrics stays valid for Prometheus', async () => {
    const hook = await startReceiver();
    const w = await startWatcher(
      tempDir('tw-safe-'),
      baseConfig(svc.url, { watches: [{ address: WATCHED, label: LABEL }], alerts: { channels: [{ type: 'webhook', url: hook.url, format: 'json' }] } }),
    );
    try {
      const id = sendWatched(svc);
      await pollNow(w);
      await waitFor(() => hook.bodies.length >= 1 || undefined, 10_000, 'the alert');
      expect(hook.bodies[0]?.body).toMatchObject({ messageId: id, watch: SHOWN });

      const text = await (await fetch(w.metrics!.url)).text();
      expect(text).toContain(`teleporter_watch_tracked_messages_by_watch{watch="${SHOWN}",status="pending"} 1`);
      expect(text).not.toMatch(/[\r\u202E\u2066\u009B]/);
      expect(text.split('\n').filter((l) => l.startsWith('# forged'))).toEqual([]);
      if (!missing(PROMTOOL)) {
        const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: text, encoding: 'utf8' });
        // Lint remarks (counter names, help texts) are not format errors: only a parse error fails.
        expect(check.stderr + check.stdout).not.toMatch(/error while linting|text format parsing error|invalid/i);
      }
    } finally {
      await w.close();
      await hook.close();
    }
  });
});
