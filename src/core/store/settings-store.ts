import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '../../shared/contract';
import { planFromRequestBudget } from '../../shared/plans';
import { SettingsPatchSchema, SettingsSaveSchema, SettingsSchema } from '../../shared/schemas';
import { sourceKeyOf, type SourceKey } from '../../shared/sources';
import type { Db } from './database';

/** Settings are one validated JSON document; unknown or invalid stored values fall back to defaults. */
export class SettingsStore {
  private readonly stmts;
  /** The source key of the stored settings' text it was computed from (a read per figure query must not parse them). */
  private sourceMemo: { json: string | undefined; key: SourceKey } | null = null;

  constructor(db: Db) {
    this.stmts = {
      get: db.prepare<[], string>('SELECT json FROM settings WHERE id = 1').pluck(),
      put: db.prepare('INSERT INTO settings (id, json) VALUES (1, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
    };
  }

  get(): Settings {
    const json = this.stmts.get.get();
    if (json === undefined) return structuredClone(DEFAULT_SETTINGS);
    let stored: unknown;
    try {
      stored = JSON.parse(json);
    } catch {
      return structuredClone(DEFAULT_SETTINGS);
    }
    const merged = SettingsSchema.safeParse(mergeSettings(DEFAULT_SETTINGS, migrate(stored) as SettingsPatch));
    return merged.success ? merged.data : structuredClone(DEFAULT_SETTINGS);
  }

  /** The current data source's key (src/shared/sources.ts): what every figure written now is stored with and what views count. */
  sourceKey(): SourceKey {
    const json = this.stmts.get.get();
    if (!this.sourceMemo || this.sourceMemo.json !== json) this.sourceMemo = { json, key: sourceKeyOf(this.get().dataSource) };
    return this.sourceMemo.key;
  }

  /** Applies a validated patch; throws the zod error when the merged result is invalid. */
  update(patch: SettingsPatch): Settings {
    const parsedPatch = SettingsPatchSchema.parse(patch);
    // Alert URLs are checked when a save sets them (or the allowance): a save of other fields never fails on a channel stored earlier.
    const checksChannels = parsedPatch.alertChannels !== undefined || parsedPatch.allowLinkLocalAlertTargets !== undefined;
    const next = (checksChannels ? SettingsSaveSchema : SettingsSchema).parse(mergeSettings(this.get(), parsedPatch));
    this.stmts.put.run(JSON.stringify(next));
    return next;
  }
}

/** Settings of older versions: the request budget a minute gave way to the plan (see planFromRequestBudget). */
function migrate(stored: unknown): unknown {
  if (!stored || typeof stored !== 'object' || 'plan' in stored || !('requestBudgetPerMinute' in stored)) return stored;
  const { requestBudgetPerMinute, ...rest } = stored as Record<string, unknown>;
  return { ...rest, plan: planFromRequestBudget(requestBudgetPerMinute) };
}

function mergeSettings(base: Settings, patch: SettingsPatch | null | undefined): Settings {
  if (!patch || typeof patch !== 'object') return structuredClone(base);
  const out = { ...structuredClone(base), ...(patch as object) };
  out.notifications = { ...base.notifications, ...(patch.notifications ?? {}) };
  return out;
}
