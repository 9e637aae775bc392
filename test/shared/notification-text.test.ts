// Notification wording (src/shared/notification-text.ts): every kind in both languages, from the
// facts the service pushes, with no English in the Chinese text beyond names and references; orders
// named by the merchant's order number, never by the internal clientOrderRef.
import { describe, expect, it } from 'vitest';
import { notificationLanguage, notificationText, type NotificationFacts } from '../../src/shared/notification-text';

const PO = '2026112400000001';

const FACTS: NotificationFacts[] = [
  { kind: 'orderCompleted', productName: '腾讯视频月卡', platformOrderRef: PO, clientOrderRef: 'o_internal_1' },
  { kind: 'orderFailed', productName: null, platformOrderRef: '2026112400000002', clientOrderRef: 'o_internal_2' },
  { kind: 'credentialsReady', productName: '京东E卡', platformOrderRef: '2026112400000003', cards: 3, clientOrderRef: 'o_internal_3' },
  { kind: 'productChanged', productName: '爱奇艺会员', productRef: 7, priceFromFen: 1990 },
  { kind: 'productChanged', productRef: 8 },
  { kind: 'lowBalance', balanceFen: 5050, currency: 'CNY' },
  { kind: 'aftersaleReply', productName: '话费充值', platformOrderRef: '2026112400000004', platformCaseRef: 'AS_9', preview: '已补发卡密', images: 0, clientOrderRef: 'o_internal_4' },
  { kind: 'aftersaleReply', platformCaseRef: 'AS_10', platformOrderRef: '2026112400000005', preview: null, images: 2, clientOrderRef: 'o_internal_5' },
  // The merchant has not answered yet: no number, and still not the internal ref.
  { kind: 'orderFailed', productName: '腾讯视频月卡', platformOrderRef: null, clientOrderRef: 'o_internal_6' },
  { kind: 'orderCompleted', productRef: 9, clientOrderRef: 'o_internal_7' },
];

describe('notification text', () => {
  it('words every kind in Chinese without English words', () => {
    for (const facts of FACTS) {
      const { title, body } = notificationText(facts, 'zh-CN');
      expect(title).toMatch(/[\u4e00-\u9fff]/);
      // Only references (AS_9), currency codes and digits may be Latin.
      expect(`${title} ${body}`.replace(/AS_\d+|CNY|E卡/g, '')).not.toMatch(/[A-Za-z]{2,}/);
    }
    expect(notificationText(FACTS[0] as NotificationFacts, 'zh-CN')).toEqual({ title: '订单已完成', body: `订单 ${PO}（腾讯视频月卡）已完成。` });
    expect(notificationText(FACTS[2] as NotificationFacts, 'zh-CN')).toEqual({ title: '卡密已到账', body: '订单 2026112400000003（京东E卡）的 3 张卡密已存入保险箱。' });
    expect(notificationText(FACTS[3] as NotificationFacts, 'zh-CN').body).toContain('¥19.90');
    expect(notificationText(FACTS[5] as NotificationFacts, 'zh-CN').body).toContain('50.50 元');
    expect(notificationText(FACTS[6] as NotificationFacts, 'zh-CN').body).toBe('订单 2026112400000004（话费充值）售后 AS_9：“已补发卡密”');
    expect(notificationText(FACTS[7] as NotificationFacts, 'zh-CN').body).toContain('2 张图片');
    expect(notificationText(FACTS[8] as NotificationFacts, 'zh-CN').body).toBe('腾讯视频月卡订单（尚未编号）失败了，余额不会被扣除或将退回。');
    expect(notificationText(FACTS[9] as NotificationFacts, 'zh-CN').body).toBe('商品 9 的订单（尚未编号）已完成。');
  });

  it('words every kind in English, naming the order by the merchant’s number', () => {
    expect(notificationText(FACTS[0] as NotificationFacts, 'en')).toEqual({ title: 'Order completed', body: `Order ${PO} (腾讯视频月卡) is completed.` });
    expect(notificationText(FACTS[1] as NotificationFacts, 'en').body).toMatch(/^Order 2026112400000002 failed/);
    expect(notificationText(FACTS[2] as NotificationFacts, 'en').body).toBe('3 cards of order 2026112400000003 (京东E卡) are in the vault.');
    expect(notificationText(FACTS[4] as NotificationFacts, 'en').body).toBe('Product 8 changed its price or stock.');
    expect(notificationText(FACTS[6] as NotificationFacts, 'en').body).toBe('Case AS_9 of order 2026112400000004 (话费充值): “已补发卡密”');
    expect(notificationText(FACTS[8] as NotificationFacts, 'en').body).toBe('腾讯视频月卡 order (not yet numbered) failed; its money is not taken or comes back.');
    expect(notificationText(FACTS[9] as NotificationFacts, 'en').body).toBe('Product 9 order (not yet numbered) is completed.');
  });

  it('never shows the internal clientOrderRef, in either language', () => {
    for (const facts of FACTS) {
      for (const language of ['zh-CN', 'en'] as const) {
        const { title, body } = notificationText(facts, language);
        expect(`${title} ${body}`).not.toContain('o_internal');
      }
    }
  });

  it('follows the buyer’s choice, else the system language', () => {
    expect(notificationLanguage('en', 'zh-CN')).toBe('en');
    expect(notificationLanguage('zh-CN', 'en-US')).toBe('zh-CN');
    expect(notificationLanguage('system', 'zh-TW')).toBe('zh-CN');
    expect(notificationLanguage('system', 'de-DE')).toBe('en');
  });

  it('names the merchant in the title once there are several, in both languages', () => {
    const facts = { ...(FACTS[0] as NotificationFacts), merchant: { name: '游戏卡商户' } };
    expect(notificationText(facts, 'zh-CN').title).toBe('订单已完成 · 游戏卡商户');
    expect(notificationText(facts, 'en').title).toBe('Order completed · 游戏卡商户');
    expect(notificationText(facts, 'en').body).toBe(notificationText(FACTS[0] as NotificationFacts, 'en').body);
  });
});
