// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import MessageDetail from '../../src/renderer/src/components/MessageDetail.vue';
import type { ShellName } from '../../src/shared/contract';
import { parseMessage, type TeleporterMessage } from '../../src/shared/messages';
import { BEAM, C_CHAIN, message, msgId, rawMessage, txHash } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

/** The detail on a real core; the Electron shell's opener is the one stand-in (it cannot run here). */
async function show(m: TeleporterMessage, opts: { shell?: ShellName } = {}) {
  const opened: string[] = [];
  const shell = opts.shell ?? 'electron';
  const ctx = await setupRealRenderer({}, shell === 'electron' ? { shell, openExternal: async (url) => void opened.push(url) } : { shell });
  wrapper = mount(MessageDetail, { props: { message: m }, global: { plugins: [ctx.pinia] } });
  return { ...ctx, opened, w: wrapper };
}
const text = (w: VueWrapper, id: string) => w.get(`[data-testid="${id}"]`).text();

describe('MessageDetail', () => {
  it('shows a price in its own currency: a EUR price is never labelled or formatted as USD', async () => {
    const raw = rawMessage({ n: 3, status: 'delivered' });
    const rd = raw.rewardDetails as Record<string, unknown>;
    rd.price = { currencyCode: 'eur', value: 20 };
    const { w } = await show(parseMessage(raw)!);
    expect(w.find('[data-testid="detail-reward-usd"]').exists()).toBe(false);
    expect(text(w, 'detail-reward-value')).toBe('€30.00');
    expect(w.text()).toContain('Value (EUR)');
    expect(w.text()).not.toContain('USD value');
  });

  it("shows gas in each chain's native token, never raw wei, with its value where the record prices that token", async () => {
    const raw = rawMessage({ n: 5, status: 'delivered', src: C_CHAIN, dst: BEAM });
    (raw.sourceTransaction as Record<string, unknown>).gasSpent = '420000000000000';
    // The reward token here is the source chain's native token, with a price: the source gas gets its value.
    Object.assign(raw.rewardDetails as Record<string, unknown>, { symbol: 'AVAX', price: { currencyCode: 'usd', value: 30 } });
    const { w } = await show(parseMessage(raw)!);
    expect(text(w, 'detail-source-gas')).toBe('0.00042 AVAX (≈ $0.0126)');
    expect(w.get('[data-testid="detail-source-gas"]').attributes('data-wei')).toBe('420000000000000');
    // Beam's gas is paid in BEAM, which has no price in the record: the amount alone.
    expect(text(w, 'detail-destination-gas')).toBe('0.00000000000018 BEAM'); // tiny, never rounded to 0;
  });

  it('reads an ICM record (icmContractAddress) as its known variant and shows its contract', async () => {
    const { teleporterContractAddress, ...rest } = rawMessage({ n: 4, status: 'pending' });
    const m = parseMessage({ ...rest, icmContractAddress: teleporterContractAddress })!;
    expect(m.status).toBe('pending');
    const { w } = await show(m);
    expect(w.text()).toContain(`Messenger contract${String(teleporterContractAddress)}`);
  });

  it('delivered: route, both transactions, latency, reward with USD, receipts, payload as hex and UTF-8, raw JSON', async () => {
    const m = message({ n: 1, status: 'delivered', src: C_CHAIN, dst: BEAM, latency: 125 });
    const { w } = await show(m);
    expect(text(w, 'detail-message-id')).toBe(msgId(1));
    expect(text(w, 'detail-status')).toBe('delivered');
    expect(w.text()).toContain('C-Chain');
    expect(w.text()).toContain('Beam');
    expect(text(w, 'detail-source-tx')).toBe(txHash(1));
    expect(text(w, 'detail-destination-tx')).toBe(txHash(2));
    expect(text(w, 'detail-latency')).toBe('2 min 5 s');
    expect(text(w, 'detail-reward')).toBe('1.5 WAVAX');
    expect(text(w, 'detail-reward-usd')).toBe('$38.25');
    expect(w.findAll('[data-testid="detail-receipt"]')).toHaveLength(1);
    expect(text(w, 'detail-payload-utf8')).toBe('Hello, Teleporter!');
    expect(text(w, 'detail-payload-hex')).toBe('0x48656c6c6f2c2054656c65706f7274657221');
    expect(JSON.parse(text(w, 'detail-raw'))).toEqual(rawMessage({ n: 1, status: 'delivered', src: C_CHAIN, dst: BEAM, latency: 125 }));
    const links = w.findAll('[data-testid="explorer-link"]').map((a) => a.attributes('data-url'));
    expect(links).toContain(`https://subnets.avax.network/c-chain/tx/${txHash(1)}`);
    expect(links).toContain(`https://subnets.avax.network/beam/tx/${txHash(2)}`);
  });

  it('pending: no destination transaction, not delivered yet, no receipts, binary payload without UTF-8 view', async () => {
    const { w } = await show(message({ n: 2, status: 'pending', data: '0x00ff10' }));
    expect(text(w, 'detail-status')).toBe('pending');
    expect(w.find('[data-testid="detail-destination-tx"]').exists()).toBe(false);
    expect(text(w, 'detail-latency')).toBe('not delivered yet');
    expect(w.findAll('[data-testid="detail-receipt"]')).toHaveLength(0);
    expect(w.find('[data-testid="detail-payload-utf8"]').exists()).toBe(false);
    expect(text(w, 'detail-payload-hex')).toBe('0x00ff10');
  });

  it('delivered_source_not_indexed: says the source is not indexed and still shows the destination', async () => {
    const { w } = await show(message({ n: 3, status: 'delivered_source_not_indexed' }));
    expect(text(w, 'detail-status')).toBe('delivered (source not indexed)');
    expect(w.text()).toContain('The source transaction is not indexed by the data source.');
    expect(text(w, 'detail-destination-tx')).toBe(txHash(4));
    expect(text(w, 'detail-latency')).toBe('—');
  });

  it('unknown status: shows reportedStatus, the problem and the complete raw record', async () => {
    const raw = rawMessage({ n: 4, status: 'relaying', extra: { hops: 3 } });
    const m = parseMessage(raw)!;
    const { w } = await show(m);
    expect(text(w, 'detail-status')).toBe('unknown: relaying');
    expect(text(w, 'detail-reported-status')).toBe('relaying');
    expect(text(w, 'detail-unknown-problem')).toBe('unknown status "relaying"');
    expect(JSON.parse(text(w, 'detail-raw'))).toMatchObject({ hops: 3, status: 'relaying' });
    expect(text(w, 'detail-reward')).toBe('1.5 WAVAX'); // fields still read from the raw record
  });

  it('a known status that failed its schema is shown as unknown with the reason', async () => {
    const raw = rawMessage({ n: 5, status: 'delivered' });
    delete raw.destinationTransaction;
    const { w } = await show(parseMessage(raw)!);
    expect(text(w, 'detail-reported-status')).toBe('delivered');
    expect(text(w, 'detail-unknown-problem')).toMatch(/destinationTransaction/);
  });

  it('explorer links open through openExternal; in a browser (web host or headless watcher) a refusal falls back to a new tab', async () => {
    const m = message({ n: 6 });
    const { w, opened: openedByShell } = await show(m, { shell: 'electron' });
    await w.get('[data-testid="explorer-link"]').trigger('click');
    await until(() => expect(openedByShell).toHaveLength(1));
    expect(openedByShell).toEqual([`https://subnets.avax.network/c-chain/tx/${txHash(6)}`]);
    wrapper!.unmount();

    // A page in a browser has no opener (the web host, the headless watcher's --web): the core refuses, and the page opens a new tab itself.
    const { useStatusStore } = await import('../../src/renderer/src/stores/status');
    for (const shell of ['web', 'headless'] as const) {
      const browser = await show(m, { shell });
      await useStatusStore().load();
      expect(useStatusStore().shell).toBe(shell);
      const opened: unknown[][] = [];
      // eslint-disable-next-line @typescript-eslint/unbound-method -- kept only to be put back
      const original = window.open;
      window.open = (...args: unknown[]) => {
        opened.push(args);
        return null;
      };
      try {
        await browser.w.get('[data-testid="explorer-link"]').trigger('click');
        await until(() => expect(opened).toHaveLength(1));
      } finally {
        window.open = original;
      }
      expect(opened).toEqual([[`https://subnets.avax.network/c-chain/tx/${txHash(6)}`, '_blank', 'noopener,noreferrer']]);
      wrapper!.unmount();
      wrapper = null;
    }
  });
});
