import { describe, expect, it } from 'vitest';
import type { NotificationPayload } from '../../src/shared/contract';
import { createNotifier, focusEventFor } from '../../src/main/notifications';
import { FakeNotification } from './fake-electron';

const ID = 'acf1c8b06f9aec48e9fcbefbbe576ae8a7ca3b327fcae111396e7cc99956674d';
const single: NotificationPayload = { id: 7, title: 'Message delivered', body: 'C-Chain → Dispatch (Fuji)', messageId: ID, transitionIds: [31] };
const summary: NotificationPayload = { id: 8, title: '12 messages changed', body: '9 delivered, 3 stuck', transitionIds: [32, 33, 34] };

function setup(supported = true) {
  const created: FakeNotification[] = [];
  const clicked: NotificationPayload[] = [];
  const notify = createNotifier(
    { isSupported: () => supported, create: (o) => (created.push(new FakeNotification(o)), created.at(-1) as never) },
    { icon: '/icon.png', onClick: (p) => clicked.push(p) },
  );
  return { notify, created, clicked };
}

describe('notifications', () => {
  it('shows each payload the core hands over, with its title and body', async () => {
    const { notify, created } = setup();
    await notify(single);
    await notify(summary);
    expect(created.map((n) => [n.options.title, n.options.body, n.options.icon, n.shown])).toEqual([
      ['Message delivered', 'C-Chain → Dispatch (Fuji)', '/icon.png', true],
      ['12 messages changed', '9 delivered, 3 stuck', '/icon.png', true],
    ]);
  });

  it("shows a title's and body's hidden characters (a label's CR LF, a bidi override, C1 controls) instead of passing them to the desktop", async () => {
    const { notify, created } = setup();
    await notify({ ...single, title: 'Relayer silent: ours\u202E\r\nforged', body: 'Beam\u2066\u009B \u200Bx' });
    expect([created[0]!.options.title, created[0]!.options.body]).toEqual([
      'Relayer silent: ours<U+202E><U+000D><U+000A>forged',
      'Beam<U+2066><U+009B> <U+200B>x',
    ]);
  });

  it('reports a click with the payload it belongs to', async () => {
    const { notify, created, clicked } = setup();
    await notify(summary);
    await notify(single);
    created[1]!.emitRaw('click', {});
    expect(clicked).toEqual([single]);
  });

  it('acknowledges without showing where the desktop has no notification service', async () => {
    const { notify, created } = setup(false);
    await expect(notify(single)).resolves.toBeUndefined();
    expect(created).toEqual([]);
  });

  it('focuses the message for a single-message notification, nothing for a summary', () => {
    expect(focusEventFor(single)).toEqual({ type: 'focus-message', messageId: ID });
    expect(focusEventFor(summary)).toBeNull();
  });
});
