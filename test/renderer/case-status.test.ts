// The after-sales screens' helpers: a case state reads by name and an unknown one as unknown (never
// resolved); categories and senders likewise; a delivery reason is in the buyer's language for every
// code the outbox records; the forms' rows say which rule they break; and every rule, state, category
// and reason has words in both languages.
import { describe, expect, it } from 'vitest';
import { AFTERSALE_CATEGORIES } from '../../src/shared/ipc/views/aftersales';
import { CASE_STATES } from '../../src/shared/merchant/known-values';
import { caseStateView, categoryLabel, deliveryReason, isShowableImage, senderSide } from '../../src/renderer/src/lib/case-status';
import { imageRowProblem, ruleText } from '../../src/renderer/src/lib/case-form';
import { en } from '../../src/renderer/src/i18n/messages-en';
import { zhCN } from '../../src/renderer/src/i18n/messages-zh-cn';
import { translate, translateDynamic } from '../../src/renderer/src/i18n/translate';
import type { MessageKey } from '../../src/renderer/src/i18n/messages-en';

const i18nOf = (locale: 'en' | 'zh-CN') => ({
  t: (key: MessageKey, params?: Record<string, string | number>) => translate(locale, key, params),
  td: (key: string, fallback: MessageKey, params?: Record<string, string | number>) => translateDynamic(locale, key, fallback, params),
});

describe('after-sales on screen', () => {
  it('names known case states and shows an unknown one raw, never as resolved', () => {
    const zh = i18nOf('zh-CN');
    expect(caseStateView('open', zh)).toEqual({ label: '等待商户处理', tone: 'processing', known: true });
    expect(caseStateView('resolved', zh)).toEqual({ label: '已解决', tone: 'success', known: true });
    const unknown = caseStateView('escalated', i18nOf('en'));
    expect(unknown.known).toBe(false);
    expect(unknown.tone).toBe('warning');
    expect(unknown.label).toContain('escalated');
    expect(categoryLabel('cardUsed', zh)).toBe('卡密已被使用');
    expect(categoryLabel('angry', i18nOf('en'))).toBe('Other (angry)');
    expect([senderSide('buyer'), senderSide('merchant'), senderSide('system')]).toEqual(['buyer', 'merchant', 'other']);
  });

  it('gives the reason of an undelivered message in the buyer’s language', () => {
    const zh = i18nOf('zh-CN');
    expect(deliveryReason({ lastErrorCode: 'TRANSPORT', lastError: 'the merchant could not be reached' }, zh)).toBe('无法连接商户');
    expect(deliveryReason({ lastErrorCode: '409104', lastError: 'closed' }, zh)).toBe('工单已关闭');
    expect(deliveryReason({ lastErrorCode: '499999', lastError: 'x' }, i18nOf('en'))).toBe('code 499999');
    expect(deliveryReason({ lastErrorCode: null, lastError: null }, zh)).toBe('');
    // A merchant code the after-sales table has no words for gets the merchant code's words; core's
    // English text without a code is never shown.
    expect(deliveryReason({ lastErrorCode: '422102', lastError: 'x' }, zh)).toBe('库存不足');
    expect(deliveryReason({ lastErrorCode: null, lastError: 'socket hang up' }, zh)).toBe('应用无法发送');
  });

  it('checks image rows with core’s rules and words each rule', () => {
    const en_ = i18nOf('en');
    expect(imageRowProblem('   ')).toBeNull();
    expect(imageRowProblem(' https://img.example.com/a.png ')).toBeNull();
    expect(imageRowProblem('http://img.example.com/a.png')).toBe('NOT_HTTPS');
    expect(ruleText('TOO_LONG', 'description', en_)).toBe('Too long: at most 500 characters.');
    expect(ruleText('TOO_LONG', 'text', en_)).toBe('Too long: at most 1,000 characters.');
    expect(isShowableImage('https://img.example.com/a.png')).toBe(true);
    expect(isShowableImage('http://img.example.com/a.png')).toBe(false);
  });

  it('has words for every rule, state, category and outbox reason in both languages', () => {
    const keys = [
      ...['CATEGORY_UNKNOWN', 'REQUIRED', 'TOO_LONG', 'EMPTY_MESSAGE', 'TOO_MANY_IMAGES', 'URL_TOO_LONG', 'URL_INVALID', 'NOT_HTTPS', 'CREDENTIALS_IN_URL', 'HOST_NOT_PUBLIC', 'NOT_AN_IMAGE'].map((r) => `aftersale.rule.${r}`),
      ...CASE_STATES.map((s) => `aftersale.state.${s}`),
      ...AFTERSALE_CATEGORIES.map((c) => `aftersale.category.${c}`),
      ...['TRANSPORT', 'TIMEOUT', 'PROTOCOL', 'INTERRUPTED', 'LOCAL', '409104', '404003', '400001', '422112', '409001'].map((c) => `aftersale.reason.${c}`),
      ...['pending', 'sent', 'retrying', 'failed'].map((d) => `aftersale.delivery.${d}`),
    ];
    for (const key of keys) {
      expect(Object.hasOwn(en, key), key).toBe(true);
      expect(Object.hasOwn(zhCN, key), key).toBe(true);
    }
  });
});
