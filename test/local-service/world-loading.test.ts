/**
 * The service loads the world asked for and nothing of the other: on your own nodes not one module of
 * src/simulator is loaded (no TrafficSimulator is built), and the simulated world loads none of
 * src/chain-index. Each start runs in its own Node process (as the core spawns the service), which
 * then lists the modules of ours it loaded.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'loader.mjs');
const OWN_NODES = { chains: [{ rpcUrl: 'http://127.0.0.1:9', blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5' }] };

/** Starts a service with `options` in a child process; the folders under src/ of the modules it loaded, and whether it had a simulator. */
async function loadedBy(options: object): Promise<{ folders: string[]; simulator: boolean; simulated: unknown }> {
  const script = `
    const { startLocalService } = require(${JSON.stringify(join(root, 'src', 'local-service', 'index.ts'))});
    (async () => {
      const svc = await startLocalService(${JSON.stringify(options)});
      const info = await (await fetch(svc.url + '/_local/info')).json();
      const folders = [...new Set(Object.keys(require.cache).filter((k) => k.includes('/src/')).map((k) => k.split('/src/')[1].split('/')[0]))];
      const simulator = svc.simulator !== undefined;
      await svc.close();
      console.log(JSON.stringify({ folders: folders.sort(), simulator, simulated: info.simulated }));
    })();`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--import', tsx, '-e', script], { cwd: root });
  return JSON.parse(stdout) as { folders: string[]; simulator: boolean; simulated: unknown };
}

describe('the worlds the service loads', () => {
  it('loads no simulator code on your own nodes, and no chain index in the simulated world', async () => {
    const [own, simulated] = await Promise.all([loadedBy({ warmStore: false, ownNodes: OWN_NODES }), loadedBy({ warmStore: false, rate: 0 })]);
    expect(own).toMatchObject({ simulator: false, simulated: false });
    expect(own.folders).toContain('chain-index');
    expect(own.folders).not.toContain('simulator');
    expect(simulated).toMatchObject({ simulator: true, simulated: true });
    expect(simulated.folders).toContain('simulator');
    expect(simulated.folders).not.toContain('chain-index');
  });
});
