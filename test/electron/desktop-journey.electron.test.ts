// The real-Electron smoke suite (`npm run test:electron`): the built desktop app started in Electron
// itself (utilityProcess, the app:// protocol, safeStorage, the tray: what test/shell meets only as a
// fake), driven by the same steps as the web host's e2e (test/e2e/support/app-steps.ts). Without an
// Electron binary every test is skipped and the reason printed; on CI that is a failure instead.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  buyCardOrder,
  closeOverlays,
  connectDemoToCatalog,
  goTo,
  openExportDialog,
  revealCard,
  selectCards,
  submitExportDialog,
  typeExportPasswords,
  type RevealedCard,
} from '../e2e/support/app-steps';
import { screenshot } from '../e2e/support/browser';
import type { ControlProduct } from '../e2e/support/sandbox-control';
import { demoCatalog } from './support/demo-catalog';
import {
  answerSaveDialogs,
  BUILT_MAIN,
  clickTrayItem,
  closeMainWindow,
  corePid,
  isRunning,
  launchDesktopApp,
  trayLabels,
  windows,
  type DesktopApp,
} from './support/desktop-app';
import { electronPackageDir, findElectronBinary, planElectronSuite } from './support/electron-binary';

const plan = planElectronSuite(findElectronBinary(electronPackageDir(), process.env), process.env);
const binary = plan.kind === 'run' ? plan.binary : '';
const notRun = plan.kind === 'run' ? '' : plan.reason;
if (plan.kind === 'skip') console.warn(`[test:electron] skipped: ${notRun}`);
if (plan.kind === 'fail') console.error(`[test:electron] cannot run on CI: ${notRun}`);

describe.runIf(plan.kind === 'fail')('the real-Electron suite on CI', () => {
  it('has an Electron binary to run on', () => {
    throw new Error(notRun);
  });
});

const PASSWORD = 'Plum-风筝-7731';

describe.skipIf(plan.kind !== 'run')(plan.kind === 'run' ? 'the desktop app in real Electron' : `the desktop app in real Electron (skipped: ${notRun})`, () => {
  let desktop: DesktopApp | undefined;
  let page: Page;
  let products: ControlProduct[];
  let exportDir: string;
  let orderRef = '';
  let card: RevealedCard;

  const app = (): DesktopApp => {
    if (desktop === undefined) throw new Error('the desktop app did not start');
    return desktop;
  };
  const cardRow = (): Locator => page.locator(`[data-testid="vault-card"][data-ref="${orderRef}"]`);

  beforeAll(async () => {
    if (!existsSync(BUILT_MAIN)) throw new Error(`no built app at ${BUILT_MAIN}: run \`npm run build\` first`);
    exportDir = mkdtempSync(join(tmpdir(), 'procure-electron-exports-'));
    products = await demoCatalog();
    desktop = await launchDesktopApp(binary);
    page = desktop.page;
  }, 180_000);

  afterEach(async (context) => {
    if (context.task.result?.state !== 'fail' || desktop === undefined) return;
    // What the window showed and what the app said, for whoever reads the failure.
    if (!page.isClosed()) await screenshot(page, `electron-failed-${context.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => undefined);
    mkdirSync(join(process.cwd(), 'test-results'), { recursive: true });
    writeFileSync(join(process.cwd(), 'test-results', 'electron-app-output.log'), desktop.output());
  });

  afterAll(async () => {
    await desktop?.dispose();
    if (exportDir !== undefined) rmSync(exportDir, { recursive: true, force: true });
  });

  it('starts the built app on a user-data folder of its own, at the connect screen, with its core process', async () => {
    const paths = await app().electron.evaluate(({ app: electronApp }) => ({ userData: electronApp.getPath('userData'), name: electronApp.getName() }));
    expect(realpathSync(paths.userData)).toBe(realpathSync(app().userData));
    expect(paths.name).toBe('Procure Desk');
    await page.getByTestId('connect-screen').waitFor({ timeout: 60_000 });
    // The built screens from the app's own protocol, not a dev server or a file.
    expect(page.url()).toMatch(/^app:\/\/procure-desk\//);
    await expect.poll(() => windows(app().electron)).toEqual([{ visible: true, minimized: false }]);
    await expect.poll(() => corePid(app().electron), { timeout: 30_000 }).not.toBeNull();
  });

  it('connects to the built-in demo merchant', async () => {
    await connectDemoToCatalog(page);
  });

  it('buys a card', async () => {
    ({ ref: orderRef } = await buyCardOrder(page, products, 1, []));
    await closeOverlays(page);
  }, 180_000);

  it('reveals the card in the vault', async () => {
    await goTo(page, 'vault');
    await cardRow().waitFor();
    card = await revealCard(cardRow());
    expect(card.masked).toMatch(/[*•]/);
    expect(card.cardNo).not.toMatch(/[*•]/);
    expect(card.cardNo.length).toBeGreaterThanOrEqual(6);
    expect(card.cardNo.endsWith(card.masked.replace(/^.*[*•]/, ''))).toBe(true);
  });

  it('exports it as a password-protected workbook to where the save dialog said', async () => {
    const target = join(exportDir, 'cards.xlsx');
    await answerSaveDialogs(app().electron, target);
    await selectCards(page, cardRow());
    const dialog = await openExportDialog(page, 1);
    await typeExportPasswords(dialog, PASSWORD, PASSWORD);
    const outcome = await submitExportDialog(dialog);
    // Written by the desktop app itself, not handed to a browser as a download.
    expect(await outcome.getAttribute('data-delivery')).toBeNull();
    expect(((await outcome.getByTestId('export-result-path').textContent()) ?? '').trim()).toBe(target);
    const bytes = readFileSync(target);
    // An encrypted Office workbook is a compound file (CFB), never the plain zip of an open one.
    expect([...bytes.subarray(0, 8)]).toEqual([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
    for (const code of [card.cardNo, card.password].filter((text) => text !== '')) {
      expect(bytes.includes(Buffer.from(code, 'utf8'))).toBe(false);
      expect(bytes.includes(Buffer.from(code, 'utf16le'))).toBe(false);
    }
    await dialog.getByTestId('export-close').click();
    await expect.poll(() => cardRow().getByTestId('vault-card-exported').count()).toBe(1);
  });

  // Closing hides the window (docs/contract.md, closing the window: to the tray on Windows and Linux,
  // the Dock on macOS), and core goes on working.
  it('closes to the tray: the app and its core keep running, and the tray brings the same window back', async () => {
    const electron = app().electron;
    await page.evaluate(() => {
      Object.assign(globalThis, { stillTheSamePage: true });
    });
    const core = await corePid(electron);
    expect(core).not.toBeNull();
    await closeMainWindow(electron);
    await expect.poll(() => windows(electron)).toEqual([{ visible: false, minimized: false }]);
    // Still running a while later: nothing quits behind the hidden window.
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(app().running()).toBe(true);
    expect(await corePid(electron)).toBe(core);

    await clickTrayItem(electron, trayLabels('showWindow'));
    await expect.poll(() => windows(electron)).toEqual([{ visible: true, minimized: false }]);
    // The same window and page, hidden and shown again: not a new one loaded from scratch.
    expect(electron.windows()).toHaveLength(1);
    expect(electron.windows()[0]).toBe(page);
    expect(await page.evaluate(() => 'stillTheSamePage' in globalThis)).toBe(true);
    await goTo(page, 'vault');
    await cardRow().waitFor();
  });

  it('restarts its core process after a kill, and the same page reads the vault again', async () => {
    const electron = app().electron;
    await page.evaluate(() => {
      Object.assign(globalThis, { beforeTheKill: true });
    });
    const first = await corePid(electron);
    if (first === null) throw new Error('no core process to kill');
    process.kill(first, 'SIGKILL');
    await expect.poll(async () => ((await corePid(electron)) ?? first) !== first, { timeout: 60_000 }).toBe(true);
    await page.getByTestId('core-reconnecting').waitFor({ state: 'detached', timeout: 60_000 });
    await expect.poll(() => page.getByTestId('online-indicator').getAttribute('data-state'), { timeout: 60_000 }).toBe('online');
    await goTo(page, 'vault');
    const again = await revealCard(cardRow());
    expect(again.cardNo).toBe(card.cardNo);
    expect(await page.evaluate(() => 'beforeTheKill' in globalThis)).toBe(true);
  }, 240_000);

  it('quits cleanly from the tray: the app and its core process end, with exit code 0', async () => {
    const electron = app().electron;
    const core = await corePid(electron);
    if (core === null) throw new Error('no core process before quitting');
    await clickTrayItem(electron, trayLabels('quit'));
    expect(await app().exited).toBe(0);
    await expect.poll(() => isRunning(core), { timeout: 15_000 }).toBe(false);
  });
});
