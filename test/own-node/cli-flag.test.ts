/** The service's --own-nodes flag: a file that is not JSON, or not a valid chain list, is refused with a clear message. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCliArgs } from '../../src/local-service/cli-args';

const dir = mkdtempSync(join(tmpdir(), 'tw-own-flag-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const file = (name: string, text: string) => {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
};

describe('--own-nodes <file>', () => {
  it('reads a valid chain list and turns the simulator off', () => {
    const p = file(
      'ok.json',
      JSON.stringify({ chains: [{ rpcUrl: 'http://127.0.0.1:8545', blockchainId: '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5' }] }),
    );
    const r = parseCliArgs(['--own-nodes', p]);
    expect(r.ok && !r.value.help && r.value.options).toMatchObject({ rate: 0, ownNodes: { chains: [{ rpcUrl: 'http://127.0.0.1:8545' }] } });
  });

  it.each([
    ['a missing file', join(dir, 'none.json'), /cannot read .* as JSON/],
    ['a file that is not JSON', 'bad.json', /cannot read .* as JSON/],
    ['an empty chain list', 'empty.json', /chains: Add at least one chain/],
    ['a bad blockchain ID', 'id.json', /chains\.0\.blockchainId: .*cb58/],
  ])('refuses %s', (_what, name, message) => {
    const contents: Record<string, string> = {
      'bad.json': '{ chains: ',
      'empty.json': '{"chains": []}',
      'id.json': '{"chains": [{"rpcUrl": "http://x", "blockchainId": "0OIl"}]}',
    };
    const p = name.startsWith('/') ? name : file(name, contents[name]!);
    const r = parseCliArgs(['--own-nodes', p]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(message);
  });
});
