// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import FilterInput from '../../src/renderer/src/components/FilterInput.vue';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

function mountInput(modelValue = '') {
  wrapper = mount(FilterInput, { props: { modelValue, label: 'Filter', testid: 'f', autofocus: true }, attachTo: document.body });
  return wrapper;
}
const emitted = (w: VueWrapper) => (w.emitted('update:modelValue') ?? []).map((e) => e[0]);

describe('FilterInput', () => {
  it('emits each typed value and is labelled, focused and free of spellchecking', async () => {
    const w = mountInput();
    const input = w.get('[data-testid="f"]');
    expect(document.activeElement).toBe(input.element);
    expect(input.attributes('aria-label')).toBe('Filter');
    expect(input.attributes('spellcheck')).toBe('false');
    await input.setValue('be');
    await input.setValue('bea');
    expect(emitted(w)).toEqual(['be', 'bea']);
  });

  it('offers a clear button only when there is text; it and Escape clear the filter', async () => {
    const w = mountInput();
    expect((w.get('button').element as HTMLElement).style.display).toBe('none');
    await w.setProps({ modelValue: 'beam' });
    expect((w.get('button').element as HTMLElement).style.display).toBe('');
    await w.get('button').trigger('click');
    await w.get('input').trigger('keydown', { key: 'Escape' });
    expect(emitted(w)).toEqual(['', '']);
  });

  it('waits for an input method to commit its text', async () => {
    const w = mountInput();
    const input = w.get('input');
    (input.element as HTMLInputElement).value = 'ㅂ';
    await input.trigger('input', { isComposing: true });
    expect(emitted(w)).toEqual([]);
    (input.element as HTMLInputElement).value = '베';
    await input.trigger('compositionend');
    expect(emitted(w)).toEqual(['베']);
  });
});
