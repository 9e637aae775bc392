// The preload the real-Electron suite gives main (support/tray-spy.cjs), run here against a stand-in
// Tray: it keeps each menu set on a tray, newest last, and the tray still gets it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runInNewContext } from 'node:vm';
import { expect, it } from 'vitest';

class FakeTray {
  menus: unknown[] = [];
  setContextMenu(menu: unknown): void {
    this.menus.push(menu);
  }
}

it('keeps every tray menu, newest last, and still sets it on the tray', () => {
  const context: Record<string, unknown> = { require: (name: string) => (name === 'electron' ? { Tray: FakeTray } : null) };
  context['globalThis'] = context;
  runInNewContext(readFileSync(join(import.meta.dirname, 'support', 'tray-spy.cjs'), 'utf8'), context);
  const tray = new FakeTray();
  const english = { label: 'Show Procure Desk' };
  const chinese = { label: '显示采购台' };
  tray.setContextMenu(english);
  tray.setContextMenu(chinese);
  expect(tray.menus).toEqual([english, chinese]);
  expect(context['__procureDeskTrayMenus']).toEqual([english, chinese]);
});
