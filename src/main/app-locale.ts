// Labels of what main shows itself (menu, tray, notifications' fallbacks, dialogs): main's one table of
// words, in the language the buyer chose in Settings (appLanguage), or for "system" Chinese when the
// system prefers Chinese and English otherwise, like the renderer's "system" language.
export type MainLanguage = 'zh-CN' | 'en';

export function pickLanguage(preferred: readonly string[]): MainLanguage {
  const first = preferred[0]?.toLowerCase() ?? '';
  return first.startsWith('zh') ? 'zh-CN' : 'en';
}

/** The language of the app's setting ('system' follows the system's preferred languages). */
export function appLanguage(setting: 'system' | MainLanguage, systemPreferred: readonly string[]): MainLanguage {
  return setting === 'system' ? pickLanguage(systemPreferred) : setting;
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
  updatesOffTitle: 'Automatic updates are off',
  updatesOffAppImage:
    'This Linux build (AppImage) has no signature the app could check, so it does not update itself. Download new versions from the Procure Desk release page.',
  updatesOffUnsigned:
    'This copy of Procure Desk is not signed, so it cannot check that an update really comes from its publisher and does not update itself. Install a signed release from the Procure Desk release page.',
  updateRefusedTitle: 'An update was refused',
  updateSignatureMismatch:
    'A downloaded update is not signed by the publisher of this app and was not installed. Download new versions only from the Procure Desk release page.',
  ok: 'OK',
  stillRunningTitle: 'Procure Desk is still running',
  stillRunningBody: 'It keeps receiving order updates, sending queued orders and watching prices. Open it from the tray icon (or start Procure Desk again); quit from the tray menu or with Ctrl+Q.',
  quitInFlightTitle: 'Orders are still in progress',
  quitInFlightNotSentOne: '1 order has not been sent to the merchant yet.',
  quitInFlightNotSentMany: '{count} orders have not been sent to the merchant yet.',
  quitInFlightAwaitingOne: '1 order was sent and the merchant has not answered yet.',
  quitInFlightAwaitingMany: '{count} orders were sent and the merchant has not answered yet.',
  quitInFlightNotSentDetail: 'Orders not yet sent wait and are sent when Procure Desk starts again.',
  quitInFlightAwaitingDetail: 'The merchant may still complete orders already sent; Procure Desk checks them when it starts again.',
  quitUncheckedTitle: 'Orders could not be checked',
  quitUncheckedBody: 'Procure Desk could not check whether orders are still being sent.',
  quitUncheckedDetail: 'If any are, orders not yet sent are sent when Procure Desk starts again, and the merchant may still complete orders already sent.',
  quitAnyway: 'Quit anyway',
  keepRunning: 'Keep running',
  /** Between two sentences of a dialog: a space in English, nothing after Chinese full stops. */
  sentenceGap: ' ',
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
  updatesOffTitle: '自动更新已关闭',
  updatesOffAppImage: '此 Linux 版本（AppImage）没有可供应用校验的签名，因此不会自动更新。请从采购台的发布页面下载新版本。',
  updatesOffUnsigned: '此采购台副本未经签名，无法确认更新确实来自其发布者，因此不会自动更新。请从采购台的发布页面安装已签名的版本。',
  updateRefusedTitle: '已拒绝一个更新',
  updateSignatureMismatch: '下载的更新并非由本应用的发布者签名，因此没有安装。请只从采购台的发布页面下载新版本。',
  ok: '确定',
  stillRunningTitle: '采购台仍在运行',
  stillRunningBody: '它会继续接收订单更新、发送排队的订单并关注价格。点击托盘图标（或再次启动采购台）可打开它；要退出，请使用托盘菜单或按 Ctrl+Q。',
  quitInFlightTitle: '仍有订单在处理中',
  quitInFlightNotSentOne: '有 1 个订单尚未发送给商户。',
  quitInFlightNotSentMany: '有 {count} 个订单尚未发送给商户。',
  quitInFlightAwaitingOne: '有 1 个订单已发送，商户尚未答复。',
  quitInFlightAwaitingMany: '有 {count} 个订单已发送，商户尚未答复。',
  quitInFlightNotSentDetail: '尚未发送的订单会保留，在采购台下次启动时发送。',
  quitInFlightAwaitingDetail: '已发送的订单商户仍可能完成；采购台下次启动时会核对它们。',
  quitUncheckedTitle: '无法核对订单',
  quitUncheckedBody: '采购台无法确认是否仍有订单在发送中。',
  quitUncheckedDetail: '如果有，尚未发送的订单会在采购台下次启动时发送，已发送的订单商户仍可能完成。',
  quitAnyway: '仍要退出',
  keepRunning: '继续运行',
  sentenceGap: '',
};

export function labelsFor(language: MainLanguage): Labels {
  return language === 'zh-CN' ? ZH : EN;
}

export function fillIn(text: string, values: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (whole, key: string) => values[key] ?? whole);
}
