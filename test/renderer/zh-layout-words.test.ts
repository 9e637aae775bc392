// Issue 26's layout rules that need no browser: "起" only where a product's variant prices differ (or
// may), no space between a name and the Chinese around it, the words in a missing merchant number's
// place, the header's access tag said once, and a file choice's shared hint said once.
import { describe, expect, it } from 'vitest';
import { en, type MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { translate } from '../../src/renderer/src/i18n/translate';
import { hintShown, type HintedChoice } from '../../src/renderer/src/lib/export-hints';
import { headerShowsAccessTag } from '../../src/renderer/src/lib/header-access';
import { missingNumber, missingNumberText } from '../../src/renderer/src/lib/order-number';
import { priceVaries } from '../../src/renderer/src/lib/price-from';

/** Placeholders that carry a name (a merchant's, a product's, a variant's), never a number or a date. */
const NAMES = ['merchant', 'variant', 'product', 'productName', 'name', 'brand', 'from', 'to'];
const HAN = '[\\u4e00-\\u9fff]';

/** "{variant} 的价格走势", "在 {merchant} 的": a name spaced off the Chinese next to it ("{from} 至 {to}" is a range of days). */
function spacedNames(message: string): string[] {
  const names = NAMES.join('|');
  const text = message.replace(/\{from\} 至 \{(?:to|until)\}/g, '{days}');
  const after = [...text.matchAll(new RegExp(`\\{(?:${names})\\} (${HAN})`, 'gu'))];
  const before = [...text.matchAll(new RegExp(`(${HAN}) \\{(?:${names})\\}`, 'gu'))];
  return [...after, ...before].map((match) => match[0]);
}

describe('zh-CN layout words (issue 26)', () => {
  it('says 起 only where the variants differ in price, or may', () => {
    expect(priceVaries({ variantCount: 1 })).toBe(false);
    expect(priceVaries({ variantCount: 3 })).toBe(true);
    // Not known how many: "from" stays true.
    expect(priceVaries({ variantCount: 0 })).toBe(true);
    expect(priceVaries({ variantCount: 2, variants: [{ priceFen: 1850 }, { priceFen: 1850 }] })).toBe(false);
    expect(priceVaries({ variantCount: 2, variants: [{ priceFen: 1850 }, { priceFen: 3600 }] })).toBe(true);
    // Variants not stored yet (listOnly): the list's count decides.
    expect(priceVaries({ variantCount: 1, variants: [] })).toBe(false);
  });

  it('puts no space between a name and the Chinese around it', () => {
    const offenders = (Object.keys(en) as MessageKey[]).flatMap((key) => spacedNames(zhCN[key]).map((hit) => `${key}: ${hit}`));
    expect(offenders).toEqual([]);
    expect(translate('zh-CN', 'product.priceHistoryFor', { variant: '月卡' })).toBe('月卡的价格走势');
    // The rule sees a spaced name, and leaves numbers and ranges of days alone.
    expect(spacedNames('{variant} 的价格走势；在 {merchant} 的')).toEqual(['{variant} 的', '{merchant} 的', '在 {merchant}']);
    expect(spacedNames('{from} 至 {to} 收到；{count} 条；{price} 起')).toEqual([]);
    expect(spacedNames('已从 {from} 改到 {to}')).toEqual(['{from} 改', '从 {from}', '到 {to}']);
  });

  it('promises a merchant number only to an order that can still get one', () => {
    const t = (key: MessageKey): string => translate('zh-CN', key);
    expect(missingNumber('withdrawn')).toBe('notSent');
    expect(missingNumberText(t, 'withdrawn')).toBe('未发送给商户');
    expect(missingNumberText(t, 'rejected')).toBe('—');
    for (const waiting of ['queued', 'sending', 'unknown', 'merchant_failing', 'needs_confirmation', 'price_changed', 'account_suspended']) expect(missingNumberText(t, waiting)).toBe('商户尚未生成订单号');
  });

  it('says a suspension once in the header', () => {
    expect(headerShowsAccessTag('active', 'online', false)).toBe(false);
    // The indicator already says "账户已停用".
    expect(headerShowsAccessTag('suspended', 'suspended', false)).toBe(false);
    // The indicator says something else (offline, the core restarting): the tag is the only word of it.
    expect(headerShowsAccessTag('suspended', 'offline', false)).toBe(true);
    expect(headerShowsAccessTag('suspended', 'suspended', true)).toBe(true);
  });

  it('says a hint two file choices share once', () => {
    // Nothing plain chosen: the risk under the first plain choice only; the ZIPs' hint under the first ZIP.
    const all: HintedChoice[] = ['xlsx', 'zip', 'zipTxt', 'csv', 'txt'];
    expect(all.filter((value) => hintShown(value, 'xlsx'))).toEqual(['xlsx', 'zip', 'csv']);
    // A plain TXT chosen: its risk under it, not again under CSV.
    expect(hintShown('txt', 'txt')).toBe(true);
    expect(hintShown('csv', 'txt')).toBe(false);
    expect(hintShown('zipTxt', 'zipTxt')).toBe(true);
    expect(hintShown('zip', 'zipTxt')).toBe(false);
  });

  it('words the cancel dialog as what happens to the money', () => {
    expect(translate('zh-CN', 'action.cancelConfirm', { amount: '¥30.00' })).toBe('取消订单并将 ¥30.00 退回余额？');
    expect(translate('zh-CN', 'action.cancel')).toBe('取消订单');
    expect(translate('zh-CN', 'action.cancelKeep')).toBe('不取消');
    // The withdrawn outcome's detail does not say "已撤回" again under its title.
    expect(translate('zh-CN', 'withdraw.outcome.withdrawnDetail')).not.toContain('已撤回');
  });
});
