// Search as Chinese buyers search (issue 26), in the real UI on the demo merchant in zh-CN: "aqy"
// (initials) lists exactly the 爱奇艺 products, names starting with 爱奇艺 first; "话费" lists every
// product the 话费充值 category lists (most of their names do not say 话费) plus any other name
// that does. Screenshots of both results, light and dark.
import type { Page } from '@playwright/test';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { goTo } from './support/app-steps';
import { screenshot } from './support/browser';
import { startDemoSession, type DemoSession } from './support/demo-session';

let session: DemoSession;
let page: Page;

beforeAll(async () => {
  session = await startDemoSession('zh-CN');
  page = session.page;
  await goTo(page, 'catalog');
}, 180_000);

afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await session.recordFailure('pinyin-search', context.task.name);
});

afterAll(async () => {
  await session?.stop();
});

/** The product refs of the listed rows once the list shows the current query's fresh results. */
async function listedRefs(query: string): Promise<number[]> {
  const count = page.getByTestId('catalog-count');
  await expect.poll(() => count.getAttribute('data-query')).toBe(query);
  await expect.poll(() => count.getAttribute('data-fresh')).toBe('true');
  const rows = page.getByTestId('catalog-row');
  const refs: number[] = [];
  for (let i = 0; i < (await rows.count()); i++) refs.push(Number(await rows.nth(i).getAttribute('data-product-ref')));
  return refs;
}

async function searchFor(text: string): Promise<number[]> {
  await page.getByTestId('catalog-search').fill(text);
  return listedRefs(text);
}

async function bothSchemes(name: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await screenshot(page, `${name}-${scheme}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const nameOf = (ref: number): string => session.products.find((product) => product.productRef === ref)?.name ?? '';
const sorted = (refs: readonly number[]): number[] => [...refs].sort((a, b) => a - b);

describe('catalog search in pinyin and by category (zh-CN)', () => {
  it('"aqy" lists exactly the 爱奇艺 products, the names starting with it first', async () => {
    const iqiyi = session.products.filter((product) => product.name.includes('爱奇艺')).map((product) => product.productRef);
    expect(iqiyi.length).toBeGreaterThan(1);
    const found = await searchFor('aqy');
    expect(sorted(found)).toEqual(sorted(iqiyi));
    const firstOther = found.findIndex((ref) => !nameOf(ref).startsWith('爱奇艺'));
    const lastStarting = found.map((ref) => nameOf(ref).startsWith('爱奇艺')).lastIndexOf(true);
    if (firstOther !== -1) expect(lastStarting).toBeLessThan(firstOther);
    expect(sorted(await searchFor('aiqiyi'))).toEqual(sorted(iqiyi));
    expect(sorted(await searchFor('爱qy'))).toEqual(sorted(iqiyi));
    await searchFor('aqy');
    await bothSchemes('pinyin-search-aqy');
  });

  it('"话费" lists every product of the 话费充值 category', async () => {
    await page.getByTestId('catalog-search').fill('');
    await page.getByTestId('category-node').filter({ hasText: '话费充值' }).first().click();
    const inCategory = await listedRefs('');
    expect(inCategory.length).toBeGreaterThan(2);
    // Most of them do not say 话费 in their name: the category's name is what finds them.
    expect(inCategory.filter((ref) => !nameOf(ref).includes('话费')).length).toBeGreaterThan(0);
    await page.locator('.category-all').click();
    const found = await searchFor('话费');
    const named = session.products.filter((product) => product.name.includes('话费')).map((product) => product.productRef);
    expect(sorted(found)).toEqual(sorted([...new Set([...inCategory, ...named])]));
    await bothSchemes('pinyin-search-huafei');
  });
});
