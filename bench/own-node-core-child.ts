// The core for `bench:own-node`, alone in its process as in the app (where the service is a child of
// its own): it watches the senders on the service at the app's defaults (poll interval, stuck
// threshold, plan: keyless) and sends each transition it reports to the parent, to be judged against
// what the chains did.
import { createMonitorCore } from '../src/core';
import { serveRole } from './own-node-role';

let core: Awaited<ReturnType<typeof createMonitorCore>> | null = null;
let transitions = 0;

serveRole({
  name: 'core',
  async start(m) {
    core = await createMonitorCore({
      dataDir: m.dataDir as string,
      shell: 'web',
      version: 'bench',
      localService: { kind: 'url', url: m.url as string },
      keychainService: 'tw-bench-own-node',
    });
    core.onEvent((e) => {
      if (e.type !== 'transitions') return;
      transitions += e.transitions.length;
      process.send?.({ type: 'transitions', items: e.transitions.map((t) => [t.messageId, t.kind, t.at]) });
    });
    await core.start();
    const interval = m.pollIntervalSeconds as number | null;
    await core.handlers.updateSettings({ network: 'fuji', notifications: { enabled: false }, ...(interval ? { pollIntervalSeconds: interval } : {}) });
    for (const address of m.watch as string[]) await core.handlers.addWatch({ address, network: 'fuji' });
    return {};
  },
  async close() {
    await core?.close();
    return { transitions };
  },
});
