/**
 * Settings saved by an older version had a request budget a minute; read back, it gives way to the
 * plan: a frugal budget stays as custom CU figures, a larger one (which emptied the day's quota in
 * hours) becomes the automatic plan. A real SQLite file written as the old version wrote it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/core/store';

let dir: string | null = null;
let store: Store | null = null;
afterEach(() => {
  store?.close();
  store = null;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = null;
});

function withOldSettings(old: Record<string, unknown>): Store {
  dir = mkdtempSync(join(tmpdir(), 'tw-settings-'));
  store = openStore(dir);
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
