import { defineStore } from 'pinia';
import { ref, shallowRef } from 'vue';
import type { ErrorInfo } from '../../../shared/errors';
import { toErrorInfo } from '../../../shared/errors';
import { RELAYER_CONFIG_MAX_CHARS, type HandCall, type HandCallInput, type RelayerConfigPreview } from '../../../shared/relayer-config';
import { monitor } from '../client';

/**
 * Importing a relayer's config (docs/relayer-config.md): the file's text goes to the core, which
 * answers a preview of what it adds and removes; Apply imports it. The text is held only between the
 * preview and Apply, never stored (it holds the relayer's keys, which the core skips). Also the exact
 * calls an operator sends by hand, asked of the core one at a time.
 */
export const useRelayerConfigStore = defineStore('relayer-config', () => {
  const fileName = ref<string | null>(null);
  let text: string | null = null;
  const preview = shallowRef<RelayerConfigPreview | null>(null);
  /** What the last Apply imported (its preview), shown until the next file. */
  const imported = shallowRef<RelayerConfigPreview | null>(null);
  const error = ref<ErrorInfo | null>(null);
  const busy = ref(false);

  async function choose(file: File): Promise<void> {
    error.value = null;
    preview.value = null;
    imported.value = null;
    fileName.value = file.name;
    if (file.size > RELAYER_CONFIG_MAX_CHARS) {
      error.value = { kind: 'invalid_input', field: 'text', message: `${file.name} is larger than a relayer config can be (1 MB).` };
      return;
    }
    busy.value = true;
    try {
      text = await file.text();
      preview.value = await monitor().previewRelayerConfig({ text, fileName: file.name });
    } catch (e) {
      text = null;
      error.value = toErrorInfo(e);
    } finally {
      busy.value = false;
    }
  }

  async function apply(): Promise<void> {
    if (text === null) return;
    busy.value = true;
    try {
      imported.value = await monitor().importRelayerConfig({ text, ...(fileName.value ? { fileName: fileName.value } : {}) });
      preview.value = null;
      text = null;
    } catch (e) {
      error.value = toErrorInfo(e);
    } finally {
      busy.value = false;
    }
  }

  function cancel(): void {
    preview.value = null;
    text = null;
    error.value = null;
  }

  /** The call shown, by what it is for ("retry:<id>", "redeem:<relayer>:<chain>:<token>"), and the error of the last ask. */
  const call = shallowRef<{ key: string; call: HandCall } | null>(null);
  const callError = ref<ErrorInfo | null>(null);
  async function showCall(key: string, input: HandCallInput): Promise<void> {
    callError.value = null;
    try {
      call.value = { key, call: await monitor().handCall(input) };
    } catch (e) {
      call.value = null;
      callError.value = toErrorInfo(e);
    }
  }
  const closeCall = () => (call.value = null);

  return { fileName, preview, imported, error, busy, choose, apply, cancel, call, callError, showCall, closeCall };
});
