// The core for `bench:own-node`, alone in its process as in the app (where the service is a child of
// its own): it watches the senders on the service, polling every 5 s, and counts its transitions.
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
      localDataApi: { kind: 'url', url: m.url as string },
      keychainService: 'tw-bench-own-node',
    });
    core.onEvent((e) => {
      if (e.type === 'transitions') transitions += e.transitions.length;
    });
    await core.start();
    await core.handlers.updateSettings({ network: 'fuji', pollIntervalSeconds: 5, stuckThresholdMinutes: 10080, notifications: { enabled: false } });
    for (const address of m.watch as string[]) await core.handlers.addWatch({ address, network: 'fuji' });
    return {};
  },
  async close() {
    await core?.close();
    return { transitions };
  },
});
