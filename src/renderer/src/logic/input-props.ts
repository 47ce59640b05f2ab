import type { InputHTMLAttributes } from 'vue';

/** Attributes for the real <input> inside a naive-ui field (so tests can fill it by data-testid). */
export const tid = (testid: string, extra: Record<string, string> = {}): InputHTMLAttributes =>
  ({ 'data-testid': testid, autocomplete: 'off', spellcheck: 'false', ...extra }) as InputHTMLAttributes;
