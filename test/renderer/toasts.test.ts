// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import { nextTick } from 'vue';
import type { Transition } from '../../src/shared/contract';
import Toaster from '../../src/renderer/src/components/Toaster.vue';
import { planToasts, type Toast } from '../../src/renderer/src/logic/toast-plan';
import { useActivityStore } from '../../src/renderer/src/stores/activity';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { useWatchlistStore } from '../../src/renderer/src/stores/watchlist';
import { addr, msgId } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
  document.body.innerHTML = '';
});

const C = '2q9e4r6Mu3U68nU1fYjgbR6JvwrRx36CohpAX5UQxse55x1Q5';
let nextId = 1;
const transition = (n: number, kind: Transition['kind'], watcher: string, notify = true): Transition => ({
  id: nextId++,
  messageId: msgId(n),
  kind,
  fromStatus: null,
  toStatus: 'pending',
  at: 0,
  network: 'mainnet',
  source: 'local',
  sourceBlockchainId: C,
  destinationBlockchainId: C,
  watchers: [{ kind: 'address', address: watcher }],
  notify,
});
const asToast = (t: Transition): Toast => ({ key: `t${t.id}`, kind: 'transition', transition: t });

describe('toasts', () => {
  it('one message, one toast: first seen already delivered gives a single toast of its latest state', () => {
    const plan = planToasts([transition(1, 'new', addr(1)), transition(1, 'left_pending', addr(1))].map(asToast), () => 'A');
    expect(plan).toHaveLength(1);
    expect(plan[0]).toMatchObject({ kind: 'single', kinds: ['new', 'left_pending'], toast: { transition: { kind: 'left_pending' } } });
  });

  it('a toast names every change it stands for (data-kinds), its kind the latest', async () => {
    const r = await setupRealRenderer();
    const activity = useActivityStore();
    wrapper = mount(Toaster, { global: { plugins: [r.pinia] }, attachTo: document.body });
    activity.pendingToasts.push(...[transition(7, 'new', addr(1)), transition(7, 'left_pending', addr(1)), transition(8, 'new', addr(1))].map(asToast));
    await nextTick();
    await r.clock.advance(400);
    await until(() => expect(document.querySelectorAll('[data-testid="toast"]')).toHaveLength(2));
    const of = (n: number) => document.querySelector<HTMLElement>(`[data-testid="toast"][data-message-id="${msgId(n)}"]`)!;
    expect([of(7).dataset.kind, of(7).dataset.kinds]).toEqual(['left_pending', 'new left_pending']);
    expect([of(8).dataset.kind, of(8).dataset.kinds]).toEqual(['new', 'new']);
  });

  it('a burst of routine changes becomes one summary per watch', () => {
    const burst = Array.from({ length: 36 }, (_, i) => asToast(transition(100 + i, 'new', addr(1))));
    const other = asToast(transition(999, 'stuck', addr(2)));
    const plan = planToasts([...burst, other], (w) => (w.kind === 'address' && w.address === addr(1) ? 'Relayer A' : 'B'));
    expect(plan.map((p) => (p.kind === 'summary' ? p.title : p.toast.key))).toEqual([other.key, '36 changes on Relayer A']); // the stuck warning alone, first
  });

  it('never sums up a warning or a recovery with routine toasts', () => {
    const burst = Array.from({ length: 33 }, (_, i) => asToast(transition(200 + i, 'new', addr(1))));
    const recovered: Toast = {
      key: 'n1',
      kind: 'notification',
      notification: { id: 1, title: 'Relayer delivering again: Ours', body: '', severity: 'success', transitionIds: [] },
    };
    const silent: Toast = {
      key: 'n2',
      kind: 'notification',
      notification: { id: 2, title: 'Relayer silent: Ours', body: '', severity: 'warning', transitionIds: [] },
    };
    const plan = planToasts([...burst.slice(0, 10), recovered, ...burst.slice(10), silent], () => 'Busy');
    expect(plan.map((p) => (p.kind === 'summary' ? p.title : p.toast.key))).toEqual(['n1', 'n2', '33 changes on Busy']);
  });

  it('a warning toast stays until dismissed, and routine toasts never push it out', async () => {
    const r = await setupRealRenderer();
    const activity = useActivityStore();
    wrapper = mount(Toaster, { global: { plugins: [r.pinia] }, attachTo: document.body });
    activity.pendingToasts.push({
      key: 'n9',
      kind: 'notification',
      notification: { id: 9, title: 'Relayer silent: Ours', body: 'no deliveries', severity: 'warning', transitionIds: [] },
    });
    await nextTick();
    await r.clock.advance(400);
    await until(() => expect(document.querySelectorAll('[data-testid="toast"][data-severity="warning"]')).toHaveLength(1));
    for (let i = 0; i < 5; i++) {
      activity.pendingToasts.push(asToast(transition(300 + i, 'new', addr(1))));
      await nextTick();
      await r.clock.advance(400);
    }
    await r.clock.advance(60_000); // far past a routine toast's time
    await until(() => expect(document.querySelectorAll('[data-testid="toast"][data-severity="info"]')).toHaveLength(0));
    expect(document.querySelectorAll('[data-testid="toast"][data-severity="warning"]')).toHaveLength(1);
    document.querySelector<HTMLElement>('.toast .n-base-close')!.click();
    await until(() => expect(document.querySelectorAll('[data-testid="toast"]')).toHaveLength(0));
  });

  it('five warnings fold to two and "3 more"; expanded they all show; "Dismiss all" clears them', async () => {
    const r = await setupRealRenderer();
    const activity = useActivityStore();
    wrapper = mount(Toaster, { global: { plugins: [r.pinia] }, attachTo: document.body });
    for (let i = 1; i <= 5; i++)
      activity.pendingToasts.push({
        key: `n${20 + i}`,
        kind: 'notification',
        notification: { id: 20 + i, title: `Route backlog: r${i}`, body: 'waits', severity: 'warning', transitionIds: [] },
      });
    await nextTick();
    await r.clock.advance(400);
    const toasts = () => [...document.querySelectorAll<HTMLElement>('[data-testid="toast"]')];
    const more = () => document.querySelector<HTMLElement>('[data-testid="toasts-more"]');
    await until(() => expect(toasts()).toHaveLength(2));
    expect(document.querySelector('[data-testid="toasts"]')!.getAttribute('data-count')).toBe('5');
    expect(more()!.dataset.count).toBe('3');
    expect(more()!.textContent).toContain('3 more');
    // The newest first: the folded strip shows the latest two.
    expect(document.body.textContent).toContain('Route backlog: r5');
    expect(document.body.textContent).not.toContain('Route backlog: r1');
    more()!.click();
    await until(() => expect(toasts()).toHaveLength(5));
    expect(more()).toBeNull();
    document.querySelector<HTMLElement>('[data-testid="toasts-dismiss-all"]')!.click();
    await until(() => expect(document.querySelector('[data-testid="toasts"]')).toBeNull());
  });

  it("leaves out what the watch's Notify-on choices leave out, and a burst toast opens Activity filtered", async () => {
    const r = await setupRealRenderer();
    const activity = useActivityStore();
    const a = r.service.simulator.addresses[0]!;
    await useWatchlistStore().add({ address: a, label: 'Relayer A' }); // "new" is off by default
    await r.poll();
    wrapper = mount(Toaster, { global: { plugins: [r.pinia] }, attachTo: document.body });
    for (let i = 0; i < 36; i++) {
      await r.clock.advance(1000);
      r.service.simulator.send({ outcome: 'normal', from: a, destination: C, deliveryDelayMs: 60_000, receiptDelayMs: 10 * 3_600_000 });
    }
    await r.clock.advance(1000);
    await r.poll(); // 36 × new: logged, not toasted
    await until(() => expect(activity.unseen).toBe(36));
    expect(activity.pendingToasts).toEqual([]); // the store queued none, so the toaster has nothing to gather
    await r.clock.advance(400);
    await nextTick();
    expect(document.querySelectorAll('[data-testid="toast"]')).toHaveLength(0);
    await r.clock.advance(2 * 60_000);
    await r.poll(); // 36 × left_pending in one batch
    await until(() => expect(activity.unseen).toBe(72));
    await r.clock.advance(400);
    await until(() => expect(document.querySelectorAll('[data-testid="toast"]')).toHaveLength(1));
    expect(document.body.textContent).toContain('36 changes on Relayer A');
    document.querySelector<HTMLElement>('[data-testid="toast"]')!.click();
    await until(() => expect(r.transport.callsOf('listActivity').at(-1)).toMatchObject({ address: a }));
    expect(useUiStore().view).toBe('activity');
    expect(activity.address).toBe(a);
  });
});
