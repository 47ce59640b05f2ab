// @vitest-environment happy-dom
/** The Messages view's Find by ID box: Ctrl+K focuses it, a found message opens in the detail drawer, errors show under the box. */
import { afterEach, describe, expect, it } from 'vitest';
import { mount, type VueWrapper } from '@vue/test-utils';
import FindMessageBox from '../../src/renderer/src/components/FindMessageBox.vue';
import { useUiStore } from '../../src/renderer/src/stores/ui';
import { BEAM } from './fixtures';
import { setupRealRenderer, until } from './real-core';

let wrapper: VueWrapper | null = null;
afterEach(() => {
  wrapper?.unmount();
  wrapper = null;
});

async function mountBox() {
  const ctx = await setupRealRenderer();
  const known: string[] = [];
  for (let i = 0; i < 5; i++) {
    await ctx.clock.advance(1000);
    known.push(ctx.service.simulator.send({ outcome: 'normal', destination: BEAM.blockchainId }));
  }
  wrapper = mount(FindMessageBox, { global: { plugins: [ctx.pinia] }, attachTo: document.body });
  const input = await until(() => wrapper!.get('[data-testid="find-message-input"]'));
  return { ...ctx, known, w: wrapper, input };
}

describe('FindMessageBox', () => {
  it('Ctrl+K focuses the box; Enter opens the message (0x and upper case accepted) in the detail drawer', async () => {
    const { w, transport, input, known, api } = await mountBox();
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'k', ctrlKey: true, bubbles: true }));
    expect(document.activeElement).toBe(input.element);
    const id = known[3]!;
    await input.setValue(`0x${id.toUpperCase()}`);
    await input.trigger('keydown', { key: 'Enter' });
    const ui = useUiStore();
    await until(() => expect(ui.detailOpen).toBe(true));
    expect(transport.callsOf('findMessage')).toEqual([{ messageId: id }]);
    // The record the data source holds now, as its single-message operation returns it.
    expect(ui.detail).toEqual(await api.findMessage({ messageId: id }).then((f) => f.message));
    expect(w.find('[data-testid="field-error-messageId"]').exists()).toBe(false);
  });

  it('a malformed ID gets a field error and sends nothing', async () => {
    const { w, transport, input } = await mountBox();
    await input.setValue('0x1234');
    await w.get('[data-testid="find-message-button"]').trigger('click');
    await until(() => expect(w.get('[data-testid="field-error-messageId"]').text()).toBe('Message ID must be 64 hex digits, with or without 0x (got 4).'));
    expect(transport.callsOf('findMessage')).toEqual([]);
    expect(useUiStore().detailOpen).toBe(false);
  });

  it('a well-formed unknown ID shows the core\'s "no message" answer and opens nothing', async () => {
    const { w, transport, input } = await mountBox();
    const unknown = 'ab'.repeat(32);
    await input.setValue(unknown);
    await input.trigger('keydown', { key: 'Enter' });
    await until(() => expect(w.find('[data-testid="field-error-messageId"]').exists()).toBe(true));
    expect(transport.callsOf('findMessage')).toEqual([{ messageId: unknown }]);
    expect(w.get('[data-testid="field-error-messageId"]').text()).toContain(`No message with ID ${unknown}`);
    expect(useUiStore().detailOpen).toBe(false);
    // Typing again clears the message.
    await input.setValue(unknown.slice(1));
    expect(w.find('[data-testid="field-error-messageId"]').exists()).toBe(false);
  });
});
