// Notification wording (src/shared/notification-text.ts): every kind in both languages, from the
// facts the service pushes, with no English in the Chinese text beyond names and references.
import { describe, expect, it } from 'vitest';
import { notificationLanguage, notificationText, type NotificationFacts } from '../../src/shared/notification-text';

const FACTS: NotificationFacts[] = [
  { kind: 'orderCompleted', productName: '腾讯视频月卡', clientOrderRef: 'PD_1' },
  { kind: 'orderFailed', productName: null, clientOrderRef: 'PD_2' },
  { kind: 'credentialsReady', productName: '京东E卡', cards: 3, clientOrderRef: 'PD_3' },
  { kind: 'productChanged', productName: '爱奇艺会员', productRef: 7, priceFromFen: 1990 },
  { kind: 'productChanged', productRef: 8 },
  { kind: 'lowBalance', balanceFen: 5050, currency: 'CNY' },
  { kind: 'aftersaleReply', productName: '话费充值', platformCaseRef: 'AS_9', preview: '已补发卡密', images: 0, clientOrderRef: 'PD_4' },
  { kind: 'aftersaleReply', platformCaseRef: 'AS_10', preview: null, images: 2, clientOrderRef: 'PD_5' },
];

describe('notification text', () => {
  it('words every kind in Chinese without English words', () => {
    for (const facts of FACTS) {
      const { title, body } = notificationText(facts, 'zh-CN');
      expect(title).toMatch(/[\u4e00-\u9fff]/);
      // Only references (PD_1, AS_9), currency codes and digits may be Latin.
      expect(`${title} ${body}`.replace(/PD_\d+|AS_\d+|CNY|E卡/g, '')).not.toMatch(/[A-Za-z]{2,}/);
    }
    expect(notificationText(FACTS[2] as NotificationFacts, 'zh-CN')).toEqual({ title: '卡密已到账', body: '京东E卡的 3 张卡密已存入保险箱。' });
    expect(notificationText(FACTS[3] as NotificationFacts, 'zh-CN').body).toContain('¥19.90');
    expect(notificationText(FACTS[5] as NotificationFacts, 'zh-CN').body).toContain('50.50 CNY');
    expect(notificationText(FACTS[7] as NotificationFacts, 'zh-CN').body).toContain('2 张图片');
  });

  it('words every kind in English, naming the product or the reference', () => {
    expect(notificationText(FACTS[0] as NotificationFacts, 'en')).toEqual({ title: 'Order completed', body: '腾讯视频月卡 (PD_1) is completed.' });
    expect(notificationText(FACTS[1] as NotificationFacts, 'en').body).toMatch(/^Order \(PD_2\) failed/);
    expect(notificationText(FACTS[4] as NotificationFacts, 'en').body).toBe('Product 8 changed its price or stock.');
    expect(notificationText(FACTS[6] as NotificationFacts, 'en').body).toBe('话费充值 (case AS_9): “已补发卡密”');
  });

  it('follows the buyer’s choice, else the system language', () => {
    expect(notificationLanguage('en', 'zh-CN')).toBe('en');
    expect(notificationLanguage('zh-CN', 'en-US')).toBe('zh-CN');
    expect(notificationLanguage('system', 'zh-TW')).toBe('zh-CN');
    expect(notificationLanguage('system', 'de-DE')).toBe('en');
  });
});
