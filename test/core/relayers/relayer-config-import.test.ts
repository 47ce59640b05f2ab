/**
 * Importing a relayer's config through a real core (real SQLite, real log file, /metrics): the preview
 * says what an import adds and removes, applying it does exactly that, and no key of the file (nor one
 * in the ACCOUNT_PRIVATE_KEY… variables the relayer also reads) reaches the database, the logs, any
 * answer or event, or the metrics.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { privateKeyToAddress } from 'viem/accounts';
import { afterEach, describe, expect, it } from 'vitest';
import { coreOnService } from '../core-on-service';
import type { ImportRecord } from '../../../src/core/relayers/relayer-config-import';
import { openDatabase } from '../../../src/core/store';
import type { MonitorCore } from '../../../src/core/monitor-core';
import { startLocalService } from '../../../src/local-service';
import type { RelayerConfigPreview } from '../../../src/shared/relayer-config';
import { tempDir } from '../helpers';
import { JumpClock } from '../http-helpers';

const FIXTURE = join(__dirname, '../fixtures/relayer-config/relayer-config-with-keys.json');
const C = 'yH8D7ThNJkxmtkuv2jgBa4P1Rn3Qpr4pPr7QYNfcdoS6k6HWp';
const DISPATCH = '2D8RG4UpSXbPbvPCAWppNJyqTG2i2CAXSkTgmTBBvs7GKNZjsY';
const ENV_KEY = '0x8f2a55949038a9610f50fb23b5883af3b4ecb3c3bb792cbcefbd1542c692be63';

/** The fixture's four keys (one at the top, one on a destination, two in a list) and the variable's. */
const KEYS = [
  '0x7844d43879fb78027457215e368ebe9284bd7512d661e65b0b56218e0aef15bb',
  '0xcc844efbcc9ff87e17518d93a4ba5735df3a45317321850d960783ff47901957',
  '12389e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8123',
  '0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a',
];
const OTHER_SECRETS = ['kms-secret-id-0003', 'kms-secret-id-0004', 'rpc-query-secret-0001', 'rpc-header-secret-0002'];

/** Every secret, as written and as the relayer sanitises a key (no 0x), in both cases. */
function secretsOf(text: string): string[] {
  for (const s of [...KEYS, ...OTHER_SECRETS]) expect(text).toContain(s);
  const bare = [...KEYS, ENV_KEY].map((k) => k.replace(/^0x/, ''));
  return [...new Set([...bare, ...bare.map((k) => k.toUpperCase()), ...OTHER_SECRETS])];
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

describe('relayer config import', () => {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  async function world() {
    const clock = new JumpClock(Date.UTC(2026, 0, 1, 12));
    const svc = await startLocalService({ clock, rate: 0, warmStore: false, addressCount: 2 });
    cleanups.push(() => svc.close());
    const tmp = tempDir();
    cleanups.push(() => tmp.cleanup());
    const core: MonitorCore = await coreOnService(svc.url, clock, cleanups, { dataDir: tmp.dir, metrics: {} });
    const seen: string[] = [];
    core.onEvent((e) => seen.push(JSON.stringify(e)));
    const call = async <T>(method: string, input?: unknown): Promise<T> => {
      const r = await core.invoke(method, input);
      seen.push(JSON.stringify(r));
      if (!r.ok) throw new Error(`${method}: ${r.error.message}`);
      return r.value as T;
    };
    // Closing twice is a no-op (each part stops once): cleanups may close it again.
    const close = () => core.close();
    return { core, call, seen, dataDir: tmp.dir, close };
  }

  it('no key of the file or the environment is found in the database, the logs, any answer or event, or /metrics', async () => {
    const text = readFileSync(FIXTURE, 'utf8');
    const secrets = secretsOf(text);
    expect(secrets).toHaveLength(14); // 5 keys in both cases, the KMS IDs and the endpoints' secrets
    // The relayer reads keys from these variables too (viper's BuildConfig); the app never does.
    process.env[`ACCOUNT_PRIVATE_KEY_${DISPATCH}`] = ENV_KEY;
    process.env.ACCOUNT_PRIVATE_KEY = ENV_KEY;
    cleanups.push(() => {
      delete process.env[`ACCOUNT_PRIVATE_KEY_${DISPATCH}`];
      delete process.env.ACCOUNT_PRIVATE_KEY;
    });
    const { core, call, seen, dataDir, close } = await world();
    await call('previewRelayerConfig', { text, fileName: 'relayer.json' });
    await call('importRelayerConfig', { text, fileName: 'relayer.json' });
    // A bad key's refusal names its field, never its value.
    const bad = text.replace(
      '0xcc844efbcc9ff87e17518d93a4ba5735df3a45317321850d960783ff47901957',
      '0xcc844efbcc9ff87e17518d93a4ba5735df3a45317321850d960783ff4790195',
    );
    const refused = await core.invoke('importRelayerConfig', { text: bad });
    seen.push(JSON.stringify(refused));
    expect(refused).toMatchObject({ ok: false, error: { field: 'text' } });
    expect(JSON.stringify(refused)).toContain('destination-blockchains[0].account-private-key: not a private key');
    for (const m of ['listRelayers', 'listRoutes', 'relayerOverview', 'relayerEconomics', 'getSettings', 'pollNow']) await call(m);
    const metrics = (await core.metrics!.text()) + seen.join('\n');
    await close();

    const places: [string, string][] = [['answers, events and /metrics', metrics]];
    for (const f of filesUnder(dataDir)) places.push([f, readFileSync(f).toString('latin1')]);
    expect(places.some(([f]) => f.endsWith('core.log'))).toBe(true);
    expect(places.some(([f]) => f.endsWith('.sqlite'))).toBe(true);
    const found = places.flatMap(([where, bytes]) => secrets.filter((s) => bytes.includes(s)).map((s) => `${s.slice(0, 8)}… in ${where}`));
    expect(found).toEqual([]);
    // The import did land: the relayers, routes and wallets are in the database the search read.
    expect(places.find(([f]) => f.endsWith('core.log'))![1]).toContain('relayer config imported');
  });

  it('a changed file shows what it adds and removes before applying it; a watch added by hand stays', async () => {
    const { call, dataDir } = await world();
    const text = readFileSync(FIXTURE, 'utf8');
    const first = await call<RelayerConfigPreview>('previewRelayerConfig', { text });
    expect(first.relayers.added).toHaveLength(2);
    expect(first.routes.added.map((r) => r.label)).toEqual(['C-Chain (Fuji) → Dispatch (Fuji)', 'Dispatch (Fuji) → C-Chain (Fuji)']);
    expect(first.wallets.added).toHaveLength(4); // 5 wallet entries, the top-level key's address paying on both chains
    expect(await call<unknown[]>('listRelayers')).toHaveLength(0); // a preview changes nothing
    await call('importRelayerConfig', { text });
    expect(await call<unknown[]>('listRelayers')).toHaveLength(6);
    expect(await call<unknown[]>('listRoutes')).toHaveLength(2);
    const hand = '0x27aE10273D17Cd7e80de8580A51f476960626e5f';
    await call('addRelayer', { address: hand, label: 'by hand' });

    // The second source goes, and a key of the C-Chain's list with it.
    const cfg = JSON.parse(text) as { 'source-blockchains': unknown[]; 'destination-blockchains': Record<string, unknown>[] };
    cfg['source-blockchains'].pop();
    cfg['destination-blockchains'][1]!['account-private-keys-list'] = ['12389e99c94b6912bfc12adc093c9b51124f0dc54ac7a766b2bc5ccf558d8123'];
    const changed = JSON.stringify(cfg);
    const second = await call<RelayerConfigPreview>('previewRelayerConfig', { text: changed });
    expect(second.relayers).toMatchObject({ added: [], kept: 1, removed: [{ address: '0xd81545385803bCD83bd59f58Ba2d2c0562387F83' }] });
    expect(second.routes).toMatchObject({ added: [], kept: 1, removed: [{ source: DISPATCH, destination: C }] });
    expect(second.wallets).toMatchObject({ added: [], kept: 3, removed: [{ address: privateKeyToAddress(KEYS[3] as `0x${string}`) }] });
    await call('importRelayerConfig', { text: changed });
    const relayers = await call<{ address: string }[]>('listRelayers');
    expect(relayers.map((r) => r.address)).toContain(hand);
    expect(relayers).toHaveLength(5);
    expect(await call<unknown[]>('listRoutes')).toHaveLength(1);
    // The relayer's ports are kept with what the import added (its metrics are read from there).
    const db = openDatabase(dataDir);
    const record = JSON.parse(db.prepare<[], string>("SELECT json FROM poll_state WHERE key = 'relayer-config-import'").pluck().get()!) as ImportRecord;
    db.close();
    expect([record.metricsPort, record.apiPort]).toEqual([9191, 8181]);
    // Importing the same file again changes nothing.
    expect(await call<RelayerConfigPreview>('previewRelayerConfig', { text: changed })).toMatchObject({
      relayers: { added: [], removed: [] },
      routes: { added: [], removed: [] },
      wallets: { added: [], removed: [] },
    });
  });
});
