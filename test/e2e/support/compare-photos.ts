// Pictures of the compare screen, a link with its rule editor, and the order dialog's offers, for
// docs/screens: zh-CN and English, light and dark, each in a fresh browser session of the same host
// (its state: two merchants, one link, merchant A out of stock), so a picture shows what a buyer sees.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from '@playwright/test';
import { openApp } from './browser';
import { PHOTO_LOOKS } from './photo-looks';
import { untranslatedOn, type Untranslated } from './visible-text';
import type { RunningWebHost } from './web-host-process';

const OUT_DIR = join(process.cwd(), 'docs', 'screens');


/** Photographs each state; in zh-CN also reads it for English words or message keys (the completeness scan's rule). */
export async function photographCompare(browser: Browser, host: RunningWebHost, text: string): Promise<Record<string, Untranslated[]>> {
  mkdirSync(OUT_DIR, { recursive: true });
  const findings: Record<string, Untranslated[]> = {};
  for (const look of PHOTO_LOOKS) {
    const take = async (page: Page, name: string): Promise<void> => {
      await page.waitForTimeout(500);
      await page.screenshot({ path: join(OUT_DIR, `${name}-${look.suffix}.png`) });
      if (look.locale !== 'zh-CN') return;
      const found = await untranslatedOn(page);
      if (found.length > 0) findings[`${name}-${look.suffix}`] = found;
    };
    const { page, context } = await openApp(browser, await host.newLaunchUrl(), look.locale, { colorScheme: look.colorScheme });
    try {
      await page.getByTestId('catalog-screen').waitFor({ timeout: 30_000 });
      await page.getByTestId('nav-compare').click();
      await page.getByTestId('compare-search').fill(text);
      await page.getByTestId('compare-row').nth(1).waitFor();
      await page.getByTestId('link-card').first().waitFor();
      await take(page, 'compare');

      const card = page.getByTestId('link-card').first();
      await card.getByTestId('rule-limit').fill('0');
      await card.getByTestId('rule-save').click();
      await card.getByTestId('rule-limit-error').waitFor();
      await card.scrollIntoViewIfNeeded();
      await card.screenshot({ path: join(OUT_DIR, `compare-link-rule-${look.suffix}.png`) });
      if (look.locale === 'zh-CN') {
        const found = await untranslatedOn(page);
        if (found.length > 0) findings[`compare-link-rule-${look.suffix}`] = found;
      }

      await card.locator('[data-testid="link-member"][data-profile="p1"]').getByTestId('member-order').click();
      const modal = page.getByTestId('order-modal');
      await modal.getByTestId('order-offers').waitFor({ timeout: 60_000 });
      await take(page, 'compare-offers');

      await modal.locator('[data-testid="order-offer"][data-profile="p2"]').getByTestId('order-offer-choose').click();
      await modal.getByTestId('order-moved').waitFor();
      await modal.getByTestId('order-form').waitFor({ timeout: 60_000 });
      await take(page, 'compare-moved');
    } finally {
      await context.close();
    }
  }
  return findings;
}
