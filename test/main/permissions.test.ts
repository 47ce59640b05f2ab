import { describe, expect, it } from 'vitest';
import { denyAllPermissions } from '../../src/main/permissions';
import { FakeSession } from './fake-electron';

describe('permissions', () => {
  it('refuses every permission request and every check', () => {
    const session = new FakeSession();
    const denied: string[] = [];
    denyAllPermissions(session as never, (p, origin) => denied.push(`${p} ${origin}`));
    const answers: boolean[] = [];
    for (const p of ['notifications', 'media', 'geolocation', 'openExternal', 'clipboard-read', 'fullscreen']) {
      session.requestHandler!({ getURL: () => 'file:///app/index.html' }, p, (granted) => answers.push(granted), {});
    }
    expect(answers).toEqual([false, false, false, false, false, false]);
    expect(denied[0]).toBe('notifications file:///app/index.html');
    expect(session.checkHandler!(null, 'clipboard-sanitized-write', 'file://', {})).toBe(false);
    expect(session.deviceHandler!({ deviceType: 'usb', origin: 'file://' })).toBe(false);
  });
});
