// 设置 → 后台运行的说法（契约 §17）：关闭时最小化到托盘、登录时启动，以及当前宿主做不到的事。
// 键与 messages-background-en.ts 相同。
import type { backgroundEn } from './messages-background-en';

export const backgroundZhCN: Record<keyof typeof backgroundEn, string> = {
  'settings.background': '后台运行',
  'settings.background.closeToTray': '关闭窗口时继续在托盘中运行',
  'settings.background.closeToTray.tray': '窗口关闭后，订单更新、排队的订单和价格关注仍会继续。点击托盘图标可重新打开窗口。',
  'settings.background.closeToTray.dock': '在 macOS 上，关闭窗口后采购台仍在程序坞中运行。',
  'settings.background.startAtLogin': '登录时启动，不打开窗口',
  'settings.background.startAtLogin.loginItem': '登录系统时，采购台会在托盘中启动（macOS 上在程序坞中）。',
  'settings.background.startAtLogin.autostartFile': '登录系统时，采购台会通过桌面环境的自动启动项在托盘中启动。',
  'settings.background.onlyDesktop': '仅在桌面应用中可用。',
  'settings.background.onlyInstalled': '仅在已安装的应用中可用。',
  'settings.background.quitHint': '要退出，请使用托盘菜单或应用菜单中的“退出”，或按 Ctrl+Q（macOS 上为 ⌘Q）。如仍有订单在发送中，采购台会先询问。',
};
