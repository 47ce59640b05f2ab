import { DEFAULT_SETTINGS, type Settings, type SettingsPatch } from '../../shared/contract';
import { planFromRequestBudget } from '../../shared/plans';
import { SettingsPatchSchema, SettingsSaveSchema, SettingsSchema } from '../../shared/schemas';
import type { Db } from './database';

/** Settings are one validated JSON document; unknown or invalid stored values fall back to defaults. */
export class SettingsStore {
  private readonly stmts;

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
