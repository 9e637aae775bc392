// Labels of what main shows itself (menu, tray, notifications' fallbacks, dialogs): Chinese when the
// system prefers Chinese, English otherwise, like the renderer's "system" language.
export type MainLanguage = 'zh-CN' | 'en';

export function pickLanguage(preferred: readonly string[]): MainLanguage {
  const first = preferred[0]?.toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

export type Labels = Record<keyof typeof EN, string>;

const EN = {
  appName: 'Procure Desk',
  file: 'File',
  edit: 'Edit',
  view: 'View',
  window: 'Window',
  help: 'Help',
  showWindow: 'Show Procure Desk',
  quit: 'Quit',
  about: 'About Procure Desk',
  undo: 'Undo',
  redo: 'Redo',
  cut: 'Cut',
  copy: 'Copy',
  paste: 'Paste',
  selectAll: 'Select All',
  reload: 'Reload',
  toggleDevTools: 'Toggle Developer Tools',
  resetZoom: 'Actual Size',
  zoomIn: 'Zoom In',
  zoomOut: 'Zoom Out',
  fullScreen: 'Toggle Full Screen',
  minimize: 'Minimize',
  close: 'Close Window',
  hide: 'Hide Procure Desk',
  hideOthers: 'Hide Others',
  unhide: 'Show All',
  weakStorage: 'Keep the API key on disk with weaker protection',
  weakStorageTitle: 'No system keyring',
  weakStorageDetail:
    'This desktop has no keyring the app can use, so the API key and the card vault key are only kept until the app quits. Keeping them on disk protects them with a fixed key that any program running as you can undo. Keep them on disk anyway?',
  weakStorageAccept: 'Keep on disk',
  cancel: 'Cancel',
  backendChangedTitle: 'The system keyring changed',
  backendChangedBody:
    'Secrets saved with “{previous}” cannot be read with “{current}”. They are kept, not deleted: switch back to the previous keyring, or connect again.',
  startupFailedTitle: 'Procure Desk could not start',
} as const;

const ZH: Labels = {
  appName: '采购台',
  file: '文件',
  edit: '编辑',
  view: '视图',
  window: '窗口',
  help: '帮助',
  showWindow: '显示采购台',
  quit: '退出',
  about: '关于采购台',
  undo: '撤销',
  redo: '重做',
  cut: '剪切',
  copy: '复制',
  paste: '粘贴',
  selectAll: '全选',
  reload: '重新加载',
  toggleDevTools: '开发者工具',
  resetZoom: '实际大小',
  zoomIn: '放大',
  zoomOut: '缩小',
  fullScreen: '切换全屏',
  minimize: '最小化',
  close: '关闭窗口',
  hide: '隐藏采购台',
  hideOthers: '隐藏其他',
  unhide: '全部显示',
  weakStorage: '以较弱的保护将 API 密钥保存在磁盘上',
  weakStorageTitle: '没有系统密钥环',
  weakStorageDetail:
    '此桌面没有可用的密钥环，因此 API 密钥和卡密保险库密钥只保留到应用退出。若保存在磁盘上，它们只受一个固定密钥保护，以您身份运行的任何程序都能解开。仍要保存在磁盘上吗？',
  weakStorageAccept: '保存在磁盘上',
  cancel: '取消',
  backendChangedTitle: '系统密钥环已变化',
  backendChangedBody: '用“{previous}”保存的密钥无法用“{current}”读取。它们仍被保留，没有删除：请切换回原来的密钥环，或重新连接。',
  startupFailedTitle: '采购台无法启动',
};

export function labelsFor(language: MainLanguage): Labels {
  return language === 'zh-CN' ? ZH : EN;
}

export function fillIn(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
