// @vitest-environment happy-dom
/** The Messages view's Find by ID box: Ctrl+K focuses it, a found message opens in the detail drawer, errors show under the box. */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import FindMessageBox from '../../src/renderer/src/components/FindMessageBox.vue';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { message } from './fixtures';
import { flush, setupRenderer } from './setup';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

const known = Array.from({ length: 5 }, (_, i) => ({ message: message({ n: i + 1 }), network: 'mainnet' as const }));

async function mountBox() {
  const ctx = setupRenderer({ messages: known });
  wrapper = mount(FindMessageBox, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  await flush();
  return { ...ctx, w: wrapper, input: wrapper.get('[data-testid="find-message-input"]') };
}

describe('FindMessageBox', () => {
  it('Ctrl+K focuses the box; Enter opens the message (0x and upper case accepted) in the detail drawer', async () => {
    const { w, fake, input } = await mountBox();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }));
    expect(document.activeElement).toBe(input.element);
    const id = known[3]!.message.messageId;
    await input.setValue(`0x${id.toUpperCase()}`);
    await input.trigger('keydown', { key: 'Enter' });
    await flush();
    expect(fake.callsOf('findMessage')).toEqual([{ messageId: id }]);
    const ui = useUiStore();
    expect(ui.detailOpen).toBe(true);
    expect(ui.detail).toEqual(known[3]!.message);
    expect(w.find('[data-testid="field-error-messageId"]').exists()).toBe(false);
  });

  it('a malformed ID gets a field error and sends nothing', async () => {
    const { w, fake, input } = await mountBox();
    await input.setValue('0x1234');
    await w.get('[data-testid="find-message-button"]').trigger('click');
    await flush();
    expect(w.get('[data-testid="field-error-messageId"]').text()).toBe('Message ID must be 64 hex digits, with or without 0x (got 4).');
    expect(fake.callsOf('findMessage')).toEqual([]);
    expect(useUiStore().detailOpen).toBe(false);
  });

  it('a well-formed unknown ID shows the core\'s "no message" answer and opens nothing', async () => {
    const { w, fake, input } = await mountBox();
    const unknown = 'ab'.repeat(32);
    await input.setValue(unknown);
    await input.trigger('keydown', { key: 'Enter' });
    await flush();
    expect(fake.callsOf('findMessage')).toEqual([{ messageId: unknown }]);
    expect(w.get('[data-testid="field-error-messageId"]').text()).toContain(`No message with ID ${unknown}`);
    expect(useUiStore().detailOpen).toBe(false);
    // Typing again clears the message.
    await input.setValue(unknown.slice(1));
    expect(w.find('[data-testid="field-error-messageId"]').exists()).toBe(false);
  });
});
