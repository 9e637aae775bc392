// English words of Settings → runs in the background (contract §17): close to tray, start at login, and
// what a host cannot do; merged into messages-en.ts. messages-background-zh-cn.ts has the same keys.
export const backgroundEn = {
  'settings.background': 'Runs in the background',
  'settings.background.closeToTray': 'Keep running in the tray when the window is closed',
  'settings.background.closeToTray.tray': 'Order updates, queued orders and watched prices keep working while the window is closed. Open it again from the tray icon.',
  'settings.background.closeToTray.dock': 'On macOS, closing the window keeps Procure Desk running in the Dock.',
  'settings.background.startAtLogin': 'Start when I log in, without opening the window',
  'settings.background.startAtLogin.loginItem': 'Procure Desk starts in the tray (on macOS, in the Dock) when you log in.',
  'settings.background.startAtLogin.autostartFile': 'Procure Desk starts in the tray when you log in, through your desktop’s autostart folder (~/.config/autostart).',
  'settings.background.onlyDesktop': 'Only in the desktop app.',
  'settings.background.onlyInstalled': 'Only in the installed app.',
  'settings.background.quitHint': 'To quit, use Quit in the tray menu or the app menu, or press Ctrl+Q (⌘Q on macOS). While orders are still being sent, Procure Desk asks first.',
} as const;
