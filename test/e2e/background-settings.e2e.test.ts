// Settings → runs in the background (contract §17) in the web host, in Chromium: the desktop-only
// settings are shown and said to be the desktop app's, never a switch that does nothing; they are stored
// with the app's other settings (close to tray on, start at login off by default), in core; in zh-CN and
// English, light and dark, photographed into /tmp.
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bridgeCall } from './support/bridge-call';
import { startDemoSession, type DemoSession } from './support/demo-session';

let session: DemoSession;
let page: Page;

const SHOTS = join(tmpdir(), 'i27-background');

async function shotBoth(card: Locator, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  await card.scrollIntoViewIfNeeded();
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.waitForTimeout(500);
    await card.screenshot({ path: join(SHOTS, `${name}-${scheme}.png`) });
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('background-settings', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

describe('runs in the background, in the web host', () => {
  it('shows the desktop settings as the desktop app’s, disabled, in Chinese and English', async () => {
    // What core stored and what this host says it can apply.
    expect(await bridgeCall(page, 'settings.desktop')).toEqual({ closeToTray: 'none', startAtLogin: 'none' });
    expect(await bridgeCall(page, 'settings.get')).toMatchObject({ closeToTray: true, startAtLogin: false });

    const card = page.getByTestId('settings-background');
    await card.waitFor();
    await expect.poll(() => card.getByTestId('settings-close-to-tray-note').textContent()).toBe('仅在桌面应用中可用。');
    expect(await card.getByTestId('settings-start-at-login-note').textContent()).toBe('仅在桌面应用中可用。');
    expect(await card.locator('.ant-card-head-title').textContent()).toBe('后台运行');
    for (const id of ['settings-close-to-tray', 'settings-start-at-login']) expect(await card.getByTestId(id).isDisabled(), id).toBe(true);
    // Close to tray shows its default (on), start at login off; no quit hint where there is nothing to quit.
    expect(await card.getByTestId('settings-close-to-tray').getAttribute('aria-checked')).toBe('true');
    expect(await card.getByTestId('settings-start-at-login').getAttribute('aria-checked')).toBe('false');
    expect(await card.innerText()).not.toContain('Ctrl+Q');
    await shotBoth(card, 'settings-background-zh');

    await page.getByTestId('settings-language').click();
    await page.locator('.ant-select-item-option').filter({ hasText: 'English' }).click();
    await expect.poll(() => card.locator('.ant-card-head-title').textContent()).toBe('Runs in the background');
    expect(await card.getByTestId('settings-close-to-tray-note').textContent()).toBe('Only in the desktop app.');
    expect(await card.getByTestId('settings-start-at-login-note').textContent()).toBe('Only in the desktop app.');
    await shotBoth(card, 'settings-background-en');
    await bridgeCall(page, 'settings.set', { language: 'zh-CN' });
  });

  it('keeps the desktop settings with the app’s other settings, in core, whoever sets them', async () => {
    expect(await bridgeCall(page, 'settings.set', { closeToTray: false, startAtLogin: true })).toMatchObject({ closeToTray: false, startAtLogin: true, language: 'zh-CN' });
    await page.reload();
    const card = page.getByTestId('settings-background');
    await page.getByTestId('nav-settings').click();
    await card.waitFor();
    // Stored, and still shown as what this host cannot apply: the switches stay off and disabled.
    await expect.poll(() => card.getByTestId('settings-close-to-tray').getAttribute('aria-checked')).toBe('false');
    expect(await card.getByTestId('settings-start-at-login').getAttribute('aria-checked')).toBe('false');
    expect(await bridgeCall(page, 'settings.get')).toMatchObject({ closeToTray: false, startAtLogin: true });
  });
});
