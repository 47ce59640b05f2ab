import { describe, expect, it } from 'vitest';
import { historyCutWords } from '../../src/renderer/src/logic/history-cut';
import { BASELINE_MAX_PAGES } from '../../src/shared/policy';

describe('historyCutWords', () => {
  it('says where a watch’s first read stopped, and what that leaves unfollowed', () => {
    const at = new Date(2026, 10, 29, 9, 7).getTime();
    const w = historyCutWords(at);
    const clock = new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    expect(w.label).toBe(`history from ${clock}`);
    expect(w.title).toContain(`at most ${BASELINE_MAX_PAGES} pages`);
    expect(w.title).toContain('not followed');
  });
});
