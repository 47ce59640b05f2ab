// @vitest-environment happy-dom
import { describe, expect, it, vi } from 'vitest';
import { mount } from '@vue/test-utils';
import ListRow from '../../src/renderer/src/components/ListRow.vue';

describe('ListRow', () => {
  it('is a list item with its test id, marked only while selected, passing data attributes and clicks through', async () => {
    const onClick = vi.fn();
    const w = mount(ListRow, {
      props: { testid: 'transition-row', selected: false },
      attrs: { 'data-kind': 'new', onClick },
      slots: { default: '<span class="cell">x</span>' },
    });
    const row = w.get('[data-testid="transition-row"]');
    expect(row.attributes('role')).toBe('listitem');
    expect(row.attributes('data-kind')).toBe('new');
    expect(row.classes()).toEqual(['row']);
    expect(row.find('.cell').text()).toBe('x');
    await row.trigger('click');
    expect(onClick).toHaveBeenCalledTimes(1);
    await w.setProps({ selected: true });
    expect(row.classes()).toEqual(['row', 'selected']);
  });
});
