// The Electron host's save dialog for exports, against a fake `electron` module: modal to the main
// window (or application-modal without one), opening in Documents with the suggested name, filtered
// to the format with the overwrite question, and a cancel answered as null. Then the same chooser
// as the AppHost port the app service calls.
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { BrowserWindow, SaveDialogOptions, SaveDialogReturnValue } from 'electron';

const calls: { window: unknown; options: SaveDialogOptions }[] = [];
let answer: SaveDialogReturnValue = { canceled: false, filePath: '/home/buyer/Documents/cards.xlsx' };

function showSaveDialog(windowOrOptions: unknown, maybeOptions?: SaveDialogOptions): Promise<SaveDialogReturnValue> {
  if (maybeOptions === undefined) calls.push({ window: null, options: windowOrOptions as SaveDialogOptions });
  else calls.push({ window: windowOrOptions, options: maybeOptions });
  return Promise.resolve(answer);
}

vi.mock('electron', () => ({ dialog: { showSaveDialog } }));

const { createExportPathChooser } = await import('../../src/main/export-dialog');
const { createElectronAppHost } = await import('../../src/main/app-host');

const mainWindow = { id: 1, title: 'Procure Desk' } as unknown as BrowserWindow;

beforeEach(() => {
  calls.length = 0;
  answer = { canceled: false, filePath: '/home/buyer/Documents/cards.xlsx' };
});

describe('export save dialog', () => {
  it('asks on the main window, in Documents, with the suggested name and a filter for the format', async () => {
    const choose = createExportPathChooser({ window: () => mainWindow, defaultDir: () => '/home/buyer/Documents', language: 'zh-CN' });
    expect(await choose('procure-desk-cards-20250501-120000-3.xlsx')).toBe('/home/buyer/Documents/cards.xlsx');
    expect(calls).toHaveLength(1);
    expect(calls[0]?.window).toBe(mainWindow);
    expect(calls[0]?.options).toEqual({
      title: '导出卡密',
      buttonLabel: '导出',
      defaultPath: '/home/buyer/Documents/procure-desk-cards-20250501-120000-3.xlsx',
      filters: [{ name: '加密 Excel 工作簿', extensions: ['xlsx'] }],
      properties: ['createDirectory', 'showOverwriteConfirmation'],
    });
  });

  it('names the ZIP and the unencrypted CSV in English too, and is application-modal without a window', async () => {
    const choose = createExportPathChooser({ window: () => null, defaultDir: () => '/docs', language: 'en' });
    await choose('a.zip');
    await choose('b.csv');
    await choose('c.txt');
    expect(calls.map((c) => c.window)).toEqual([null, null, null]);
    expect(calls.map((c) => c.options.filters)).toEqual([
      [{ name: 'Password-protected ZIP archive', extensions: ['zip'] }],
      [{ name: 'CSV text (not encrypted)', extensions: ['csv'] }],
      [{ name: 'Plain text (not encrypted)', extensions: ['txt'] }],
    ]);
  });

  it('words a spend export as spend data, not card codes', async () => {
    const choose = createExportPathChooser({ window: () => mainWindow, defaultDir: () => '/docs', language: 'zh-CN' });
    await choose('procure-desk-spend-days-2026-11-01-to-2026-11-30.xlsx');
    expect(calls[0]?.options).toMatchObject({ title: '导出支出数据', filters: [{ name: 'Excel 工作簿', extensions: ['xlsx'] }] });
  });

  it('answers null when the buyer cancels (or the dialog returns no path)', async () => {
    const choose = createExportPathChooser({ window: () => mainWindow, defaultDir: () => '/docs', language: 'en' });
    answer = { canceled: true, filePath: '' };
    expect(await choose('a.xlsx')).toBeNull();
    answer = { canceled: false, filePath: '' };
    expect(await choose('a.xlsx')).toBeNull();
  });

  it('is the Electron AppHost\'s chooseExportPath port', async () => {
    const chooseExportPath = createExportPathChooser({ window: () => mainWindow, defaultDir: () => '/docs', language: 'en' });
    const host = createElectronAppHost({ clipboard: { write: vi.fn(() => Promise.resolve({ clearsInSeconds: 30 })), clearIfOurs: vi.fn(() => Promise.resolve()) }, demoCaDir: '/tmp/none', log: () => undefined, chooseExportPath });
    expect(await host.chooseExportPath?.('x.zip')).toBe('/home/buyer/Documents/cards.xlsx');
    expect(calls.at(-1)?.options.defaultPath).toBe('/docs/x.zip');
    const bare = createElectronAppHost({ clipboard: { write: vi.fn(() => Promise.resolve({ clearsInSeconds: 30 })), clearIfOurs: vi.fn(() => Promise.resolve()) }, demoCaDir: '/tmp/none', log: () => undefined });
    expect('chooseExportPath' in bare).toBe(false);
  });
});
