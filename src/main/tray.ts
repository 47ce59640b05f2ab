/**
 * The tray icon: tooltip and menu rendered from tray-model.ts, refreshed whenever the state moves.
 * A click on the icon toggles the window (desktops that only open the menu still have the entry).
 */
import type { Menu, MenuItemConstructorOptions, Tray } from 'electron';
import { trayMenu, trayTooltip, type TrayAction, type TrayMenuItem, type TrayState } from './tray-model';

type TrayLike = Pick<Tray, 'setToolTip' | 'setContextMenu' | 'on' | 'destroy'>;

export interface TrayBoundary {
  createTray(): TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): Menu;
}

function menuTemplate(items: TrayMenuItem[], run: (action: TrayAction) => void): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'info':
        return { id: item.id, label: item.label, enabled: false };
      case 'action':
        return { id: item.id, label: item.label, enabled: item.enabled, click: () => run(item.id) };
    }
  });
}

export interface TrayController {
  update(patch: Partial<TrayState>): void;
  state(): TrayState;
  destroy(): void;
}

export function createTrayController(boundary: TrayBoundary, run: (action: TrayAction) => void, now: () => number): TrayController {
  const tray = boundary.createTray();
  let state: TrayState = { status: null, windowVisible: false };
  const render = () => {
    const t = now();
    tray.setToolTip(trayTooltip(state, t));
    tray.setContextMenu(boundary.buildMenu(menuTemplate(trayMenu(state, t), run)));
  };
  tray.on('click', () => run('toggle-window'));
  render();
  return {
    update(patch) {
      state = { ...state, ...patch };
      render();
    },
    state: () => state,
    destroy: () => tray.destroy(),
  };
}
