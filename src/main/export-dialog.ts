// Where an export is written, asked the way the desktop asks: a native save dialog attached to the
// main window (so it is modal to the app, not floating behind it), opening in Documents with the
// suggested name, filtered to the format, with the overwrite question on Linux too. Cancel → null:
// core then writes, marks and audits nothing.
import { dialog as electronDialog, type BrowserWindow, type SaveDialogOptions, type SaveDialogReturnValue } from 'electron';
import { join } from 'node:path';
import { SPEND_EXPORT_FILE_PREFIX } from '../shared/ipc/views/books';
import type { MainLanguage } from './app-locale';

/** The member of Electron's dialog used here (replaceable in tests). */
export interface SaveDialogPort {
  showSaveDialog(window: BrowserWindow, options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
}

export interface ExportPathChooserOptions {
  /** The window the dialog belongs to; null (none open): an application-modal dialog. */
  readonly window: () => BrowserWindow | null;
  /** The folder the dialog opens in (app.getPath('documents')). */
  readonly defaultDir: () => string;
  /** The app's language now (the buyer may switch it while the app runs). */
  readonly language: MainLanguage | (() => MainLanguage);
  readonly dialog?: SaveDialogPort;
}

const TEXT = {
  'zh-CN': { title: '导出卡密', button: '导出', xlsx: '加密 Excel 工作簿', zip: '加密 ZIP 压缩包', csv: 'CSV 文本（未加密）', txt: 'TXT 纯文本（未加密）' },
  en: { title: 'Export card codes', button: 'Export', xlsx: 'Password-protected Excel workbook', zip: 'Password-protected ZIP archive', csv: 'CSV text (not encrypted)', txt: 'Plain text (not encrypted)' },
} as const;

/** A spend chart's data (core/books/spend-export.ts): no card codes, no encryption. */
const SPEND_TEXT = {
  'zh-CN': { title: '导出支出数据', button: '导出', xlsx: 'Excel 工作簿', zip: 'ZIP 压缩包', csv: 'CSV 文本', txt: 'TXT 纯文本' },
  en: { title: 'Export spend data', button: 'Export', xlsx: 'Excel workbook', zip: 'ZIP archive', csv: 'CSV text', txt: 'Plain text' },
} as const;

const EXTENSIONS = ['xlsx', 'zip', 'csv', 'txt'] as const;
type Extension = (typeof EXTENSIONS)[number];

function extensionOf(fileName: string): Extension | null {
  const ext = fileName.slice(fileName.lastIndexOf('.') + 1).toLowerCase();
  return EXTENSIONS.find((e) => e === ext) ?? null;
}

export function createExportPathChooser(options: ExportPathChooserOptions): (suggestedFileName: string) => Promise<string | null> {
  const port = options.dialog ?? electronDialog;
  return async (suggestedFileName) => {
    const text = (suggestedFileName.startsWith(SPEND_EXPORT_FILE_PREFIX) ? SPEND_TEXT : TEXT)[typeof options.language === 'function' ? options.language() : options.language];
    const ext = extensionOf(suggestedFileName);
    const dialogOptions: SaveDialogOptions = {
      title: text.title,
      buttonLabel: text.button,
      defaultPath: join(options.defaultDir(), suggestedFileName),
      filters: ext === null ? [] : [{ name: text[ext], extensions: [ext] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    };
    const window = options.window();
    const answer = window === null ? await port.showSaveDialog(dialogOptions) : await port.showSaveDialog(window, dialogOptions);
    if (answer.canceled || answer.filePath === undefined || answer.filePath === '') return null;
    return answer.filePath;
  };
}
