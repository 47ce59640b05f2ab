/**
 * Settings saved by an older version had a request budget a minute; read back, it gives way to the
 * plan: a frugal budget stays as custom CU figures, a larger one (which emptied the day's quota in
 * hours) becomes the automatic plan. A real SQLite file written as the old version wrote it.
 */
import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/core/store';
import { useStoreFolder } from './store-rig';

const reopen = useStoreFolder();

function withOldSettings(old: Record<string, unknown>): Store {
  const store = reopen();
  store.db.prepare('INSERT INTO settings (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json').run(JSON.stringify(old));
  return store;
}

describe('the old request budget a minute gives way to the plan', () => {
  it.each([
    [240, 'auto'],
    [60, 'auto'],
    [null, 'auto'],
    [10, { cuPerMinute: 200, cuPerDay: 288_000 }],
  ] as const)('requestBudgetPerMinute %j becomes plan %j; the other settings are kept', (old, plan) => {
    const s = withOldSettings({ pollIntervalSeconds: 45, requestBudgetPerMinute: old, theme: 'dark' });
    const settings = s.settings.get();
    expect(settings.plan).toEqual(plan);
    expect(settings).toMatchObject({ pollIntervalSeconds: 45, theme: 'dark' });
    expect('requestBudgetPerMinute' in settings).toBe(false);
  });

  it('a plan already saved is left as it is', () => {
    const s = withOldSettings({ plan: 'pro', requestBudgetPerMinute: 10 });
    expect(s.settings.get().plan).toBe('pro');
  });
});
