import { defineStore } from 'pinia';
import { computed, ref } from 'vue';
import { parseMonitorInput, type ApiKeyStatus, type ApiKeyTestResult, type Settings, type SettingsPatch } from '../../../shared/contract';
import { ownChainsOf } from '../../../shared/chains';
import { toErrorInfo, type ErrorInfo } from '../../../shared/errors';
import { monitor, useMonitorEvents } from '../client';
import { splitError, type FieldErrors } from '../logic/field-errors';
import { originKey } from '../logic/source-change';

export const useSettingsStore = defineStore('settings', () => {
  const settings = ref<Settings | null>(null);
  const apiKey = ref<ApiKeyStatus | null>(null);
  const loading = ref(false);
  const saving = ref(false);
  const savedAt = ref<number | null>(null);
  const fieldErrors = ref<FieldErrors>({});
  const error = ref<ErrorInfo | null>(null);
  const keyBusy = ref(false);
  const keyError = ref<string | null>(null);
  const testResult = ref<ApiKeyTestResult | null>(null);
  /** Where rows come from now (data source and network); null until the settings are read. */
  const currentSource = computed(() => (settings.value ? originKey(settings.value) : null));
  /** Your own nodes' chains while they are the data source: chains and routes are shown by the names you gave them. */
  const ownChains = computed(() => (settings.value ? ownChainsOf(settings.value.dataSource) : []));

  async function load(): Promise<void> {
    loading.value = true;
    try {
      const [s, k] = await Promise.all([monitor().getSettings(), monitor().getApiKeyStatus()]);
      settings.value = s;
      apiKey.value = k;
      error.value = null;
    } catch (e) {
      error.value = toErrorInfo(e);
    } finally {
      loading.value = false;
    }
  }

  /** Validates locally first (same schema as the core), so an invalid value never leaves the page. */
  async function save(patch: SettingsPatch): Promise<boolean> {
    fieldErrors.value = {};
    error.value = null;
    try {
      parseMonitorInput('updateSettings', patch);
    } catch (e) {
      applyError(e);
      return false;
    }
    saving.value = true;
    try {
      settings.value = await monitor().updateSettings(patch);
      savedAt.value = Date.now();
      return true;
    } catch (e) {
      applyError(e);
      return false;
    } finally {
      saving.value = false;
    }
  }

  function applyError(e: unknown) {
    const { fields, general } = splitError(e);
    fieldErrors.value = fields;
    error.value = general;
  }

  async function keyAction(run: () => Promise<ApiKeyStatus | void>): Promise<boolean> {
    keyBusy.value = true;
    keyError.value = null;
    try {
      const r = await run();
      if (r) apiKey.value = r;
      return true;
    } catch (e) {
      keyError.value = toErrorInfo(e).message;
      return false;
    } finally {
      keyBusy.value = false;
    }
  }

  const setApiKey = (key: string) => {
    testResult.value = null;
    try {
      parseMonitorInput('setApiKey', { key });
    } catch (e) {
      keyError.value = toErrorInfo(e).message;
      return Promise.resolve(false);
    }
    return keyAction(() => monitor().setApiKey({ key }));
  };
  const deleteApiKey = () => {
    testResult.value = null;
    return keyAction(() => monitor().deleteApiKey());
  };
  /** Tests the typed key, or the stored one when the field is empty. */
  const testApiKey = (key?: string) => {
    testResult.value = null;
    const input = key && key.trim() ? { key } : undefined;
    try {
      parseMonitorInput('testApiKey', input);
    } catch (e) {
      keyError.value = toErrorInfo(e).message;
      return Promise.resolve(false);
    }
    return keyAction(async () => {
      testResult.value = await monitor().testApiKey(input);
    });
  };

  // Whichever arrives first (a save's answer or this event) updates the settings.
  useMonitorEvents({
    'settings-changed': (e) => (settings.value = e.settings),
    'api-key-changed': (e) => (apiKey.value = e.status),
  });

  return {
    settings,
    apiKey,
    loading,
    saving,
    savedAt,
    fieldErrors,
    error,
    keyBusy,
    keyError,
    testResult,
    currentSource,
    ownChains,
    load,
    /** Reads the settings and the key's status again (the connection owner calls it first). */
    resync: load,
    save,
    setApiKey,
    deleteApiKey,
    testApiKey,
  };
});
