// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import type { Transition } from '../../src/shared/contract';
import Toaster from '../../src/renderer/src/components/Toaster.vue';
import { planToasts } from '../../src/renderer/src/logic/toast-plan';
import { useActivityStore, type Toast } from '../../src/renderer/src/stores/activity';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { addr, msgId } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  document.body.innerHTML = '';
});

const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
let nextId = 1;
const transition = (n: number, kind: Transition['kind'], watcher: string, notify = true): Transition => ({
  id: nextId++, messageId: msgId(n), kind, fromStatus: null, toStatus: 'pending', at: 0, network: 'mainnet', sourceBlockchainId: C, destinationBlockchainId: C, watchers: [{ kind: 'address', address: watcher }], notify,
});
const asToast = (t: Transition): Toast => ({ key: `t${t.id}`, kind: 'transition', transition: t });

describe('toasts', () => {
  it('one message, one toast: first seen already delivered gives a single toast of its latest state', () => {
    const plan = planToasts([transition(1, 'new', addr(1)), transition(1, 'left_pending', addr(1))].map(asToast), () => 'A');
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ kind: 'single', kinds: ['new', 'left_pending'], toast: { transition: { kind: 'left_pending' } } });
  });

  it('a burst becomes one summary per watch', () => {
    const burst = Array.from({ length: 36 }, (_, i) => asToast(transition(100 + i, 'new', addr(1))));
    const other = asToast(transition(999, 'stuck', addr(2)));
    const plan = planToasts([...burst, other], (w) => (w.kind === 'address' && w.address === addr(1) ? 'Relayer A' : 'B'));
    expect(plan.map((p) => (p.kind === 'summary' ? p.title : p.toast.key))).toEqual(['36 changes on Relayer A', other.key]);
  });

  it("leaves out what the watch's Notify-on choices leave out, and a burst toast opens Activity filtered", async () => {
    const ctx = setupRenderer();
    const activity = useActivityStore();
    ctx.api.onEvent((e) => activity.handleEvent(e));
    await ctx.fake.handlers.addWatch({ address: addr(1), label: 'Relayer A' } as never);
    await useWatchlistStore().load();
    wrapper = mount(Toaster, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
    ctx.fake.emit({ type: 'transitions', transitions: [transition(1, 'new', addr(1), false)], watches: [] });
    await flush();
    await ctx.clock.advance(400);
    await flush();
    expect(document.querySelectorAll('[data-testid="toast"]')).toHaveLength(0);
    ctx.fake.emit({ type: 'transitions', transitions: Array.from({ length: 36 }, (_, i) => transition(200 + i, 'left_pending', addr(1))), watches: [] });
    await flush();
    await ctx.clock.advance(400);
    await flush();
    const toasts = document.querySelectorAll<HTMLElement>('[data-testid="toast"]');
    expect(toasts).toHaveLength(1);
    expect(document.body.textContent).toContain('36 changes on Relayer A');
    toasts[0]!.click();
    await flush();
    expect(useUiStore().view).toBe('activity');
    expect(activity.address).toBe(addr(1));
    expect(ctx.fake.callsOf('listTransitions').at(-1)).toMatchObject({ address: addr(1) });
  });
});
