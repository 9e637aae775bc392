// Preloaded into the desktop app's main process by the real-Electron suite (`electron -r tray-spy.cjs .`,
// test/electron/support/desktop-app.ts): keeps every menu given to a tray, so that a test clicks the
// very items a person clicks there (Show, Quit). Electron offers no way to list an app's trays.
'use strict';
const { Tray } = require('electron');

const setContextMenu = Tray.prototype.setContextMenu;
Tray.prototype.setContextMenu = function (menu) {
  const menus = globalThis.__procureDeskTrayMenus ?? [];
  menus.push(menu);
  globalThis.__procureDeskTrayMenus = menus;
  return setContextMenu.call(this, menu);
};
