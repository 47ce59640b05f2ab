/**
 * The headless config's `relayerConfig:` entry: the relayer file's reward addresses, wallets and
 * routes join the YAML's lists, a later edit of the relayer file adds and removes at the next start,
 * and a bad file stops the start with its field named.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfigFile } from '../../src/headless/config-file';
import { startLocalService } from '../../src/local-service';
import type { WatchedRelayer, WatchedRoute } from '../../src/shared/relayers';
import { baseConfig, startWatcher, tempDir, writeConfig, type Service } from './rig';

const FIXTURE = join(__dirname, '../core/fixtures/relayer-config/relayer-config-with-keys.json');
const C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const DISPATCH = '2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY';

describe('relayerConfig in the headless config', () => {
  let svc: Service;
  beforeAll(async () => {
    svc = await startLocalService({ rate: 0, seed: 3 });
  });
  afterAll(async () => {
    await svc.close();
  });

  it("watches the relayer file's reward addresses, wallets and routes; an edit of it adds and removes at the next start", async () => {
    const dir = tempDir('tw-relayer-config-');
    copyFileSync(FIXTURE, join(dir, 'relayer.json'));
    const config = baseConfig(svc.url, { relayerConfig: 'relayer.json', relayers: [{ address: '0x27aE10273D17Cd7e80de8580A51f476960626e5f', label: 'mine' }] });
    // Where the relayer serves its own metrics, for reading them beside the chain's.
    expect(loadConfigFile(writeConfig(dir, config)).relayerMetricsPort).toBe(9191);
    let w = await startWatcher(dir, config);
    const list = async <T>(method: string) => {
      const r = await w.core.invoke(method, undefined);
      if (!r.ok) throw new Error(r.error.message);
      return r.value as T;
    };
    const relayers = await list<WatchedRelayer[]>('listRelayers');
    expect(relayers.map((r) => [r.label, r.network, r.alert])).toEqual([
      ['mine', 'mainnet', true],
      ['relayer 1 (reward address)', 'fuji', true],
      ['relayer 2 (reward address)', 'fuji', true],
      ['relayer wallet on Dispatch (Fuji)', 'fuji', false],
      ['relayer wallet on Dispatch (Fuji)', 'fuji', false], // the top-level key pays on both chains: listed once, at its first
      ['relayer wallet on C-Chain (Fuji)', 'fuji', false],
      ['relayer wallet on C-Chain (Fuji)', 'fuji', false],
    ]);
    expect((await list<WatchedRoute[]>('listRoutes')).map((r) => [r.sourceChain, r.destinationChain, r.network])).toEqual([
      [C, DISPATCH, 'fuji'],
      [DISPATCH, C, 'fuji'],
    ]);
    await w.close();

    // The relayer drops its second source: its reward address and route go at the next start.
    const cfg = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { 'source-blockchains': unknown[] };
    cfg['source-blockchains'].pop();
    writeFileSync(join(dir, 'relayer.json'), JSON.stringify(cfg));
    w = await startWatcher(dir, config);
    expect((await list<WatchedRelayer[]>('listRelayers')).map((r) => r.label)).not.toContain('relayer 2 (reward address)');
    expect(await list<WatchedRoute[]>('listRoutes')).toHaveLength(1);
    await w.close();
  });

  it('stops at a bad relayer file, naming it and the field', () => {
    const dir = tempDir('tw-relayer-config-');
    const cfg = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { 'destination-blockchains': Record<string, unknown>[] };
    cfg['destination-blockchains'][0]!['blockchain-id'] = 'nope';
    writeFileSync(join(dir, 'relayer.json'), JSON.stringify(cfg));
    const file = writeConfig(dir, baseConfig(svc.url, { relayerConfig: 'relayer.json' }));
    expect(() => loadConfigFile(file)).toThrow(ConfigError);
    expect(() => loadConfigFile(file)).toThrow('relayerConfig: relayer.json: destination-blockchains[0].blockchain-id: not a cb58 or 0x blockchain ID: "nope"');
    const missing = writeConfig(dir, baseConfig(svc.url, { relayerConfig: 'gone.json' }));
    expect(() => loadConfigFile(missing)).toThrow('relayerConfig: gone.json: cannot read it (ENOENT)');
  });
});
