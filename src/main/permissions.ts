/**
 * The page needs no browser permission (notifications come from the main process, links open
 * through the allow-list), so every request and every check is refused.
 */
import type { Session } from 'electron';

export type PermissionSession = Pick<Session, 'setPermissionRequestHandler' | 'setPermissionCheckHandler' | 'setDevicePermissionHandler'>;

export function denyAllPermissions(session: PermissionSession, onDenied?: (permission: string, origin: string) => void): void {
  session.setPermissionRequestHandler((webContents, permission, callback) => {
    onDenied?.(permission, webContents.getURL());
    callback(false);
  });
  session.setPermissionCheckHandler(() => false);
  session.setDevicePermissionHandler(() => false);
}
