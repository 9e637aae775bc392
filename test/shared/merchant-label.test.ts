// The first merchant's fallback name in the app's language (shared/merchant-label.ts), in every
// notification that names a merchant: "商户 1" in Chinese, "Merchant 1" in English; any other name as
// stored. The Chinese text of every notification kind passes the zh-CN scan's rule (english-words.ts).
import { describe, expect, it } from 'vitest';
import { englishWords } from '../../src/renderer/src/i18n/english-words';
import { FIRST_MERCHANT_FALLBACK, merchantLabel } from '../../src/shared/merchant-label';
import { notificationText, type NotificationFacts, type NotificationKind } from '../../src/shared/notification-text';

const FALLBACK = { name: 'Merchant 1', nameSource: 'fallback' } as const;

const EVERY_KIND: Record<NotificationKind, NotificationFacts> = {
  orderCompleted: { kind: 'orderCompleted', productName: '腾讯视频月卡', platformOrderRef: '2026112400000001' },
  orderFailed: { kind: 'orderFailed', productName: null, platformOrderRef: null, productRef: 3 },
  credentialsReady: { kind: 'credentialsReady', productName: '京东E卡', platformOrderRef: '2026112400000003', cards: 2 },
  productChanged: { kind: 'productChanged', productName: '爱奇艺会员', productRef: 7, priceFromFen: 1990 },
  lowBalance: { kind: 'lowBalance', balanceFen: 5050, currency: 'CNY' },
  aftersaleReply: { kind: 'aftersaleReply', productName: '话费充值', platformOrderRef: '2026112400000004', platformCaseRef: 'AS_9', preview: null, images: 1 },
};

describe('the first merchant’s name in the app’s language', () => {
  it('words the fallback per language and keeps every other name as stored', () => {
    expect(merchantLabel(FALLBACK, 'zh-CN')).toBe('商户 1');
    expect(merchantLabel(FALLBACK, 'en')).toBe('Merchant 1');
    expect(FIRST_MERCHANT_FALLBACK.en).toBe('Merchant 1');
    // The account's nickname and host, and the buyer's own "Merchant 1", are shown as they are.
    expect(merchantLabel({ name: '华东采购部', nameSource: 'account' }, 'en')).toBe('华东采购部');
    expect(merchantLabel({ name: 'api.example-merchant.cn', nameSource: 'account' }, 'zh-CN')).toBe('api.example-merchant.cn');
    expect(merchantLabel({ name: 'Merchant 1', nameSource: 'buyer' }, 'zh-CN')).toBe('Merchant 1');
    expect(merchantLabel({ name: 'Merchant 1' }, 'zh-CN')).toBe('Merchant 1');
  });

  it('names it so in every notification kind, with no English word in the Chinese text', () => {
    for (const facts of Object.values(EVERY_KIND)) {
      const zh = notificationText({ ...facts, merchant: FALLBACK }, 'zh-CN');
      expect(zh.title.endsWith(' · 商户 1')).toBe(true);
      expect(englishWords(`${zh.title} ${zh.body}`).filter((word) => word !== 'CNY' && word !== 'AS')).toEqual([]);
      expect(notificationText({ ...facts, merchant: FALLBACK }, 'en').title.endsWith(' · Merchant 1')).toBe(true);
      expect(notificationText({ ...facts, merchant: { name: '华东采购部', nameSource: 'account' } }, 'zh-CN').title.endsWith(' · 华东采购部')).toBe(true);
    }
    expect(notificationText({ ...EVERY_KIND.orderCompleted, merchant: FALLBACK }, 'zh-CN').title).toBe('订单已完成 · 商户 1');
  });
});
