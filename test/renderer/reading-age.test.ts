// A reading's age in words (issue 24 point 6): whole units, never negative, plural in English, no
// Latin word on a Chinese screen; and the one freshness threshold the drawer, the form and core share.
import { describe, expect, it } from 'vitest';
import { ageSeconds, ageWords } from '../../src/renderer/src/lib/reading-age';
import { translate } from '../../src/renderer/src/i18n/translate';
import type { MessageKey } from '../../src/renderer/src/i18n/messages-en';
import { DETAIL_FRESH_FOR_S } from '../../src/shared/ipc/views/catalog';
import { readingIsOld } from '../../src/core/catalog/detail-state';

const tOf = (locale: 'en' | 'zh-CN') => (key: MessageKey, params?: Readonly<Record<string, string | number>>) => translate(locale, key, params);
const zh = tOf('zh-CN');
const en = tOf('en');
const NOW = 1_790_000_000;

describe('reading age', () => {
  it('says the age in the largest whole unit', () => {
    expect(ageWords(zh, NOW - 2, NOW)).toBe('刚刚');
    expect(ageWords(zh, NOW - 12, NOW)).toBe('12 秒前');
    expect(ageWords(zh, NOW - 125, NOW)).toBe('2 分钟前');
    expect(ageWords(zh, NOW - 2 * 3600 - 5, NOW)).toBe('2 小时前');
    expect(ageWords(zh, NOW - 3 * 86_400, NOW)).toBe('3 天前');
    expect(ageWords(en, NOW - 61, NOW)).toBe('1 minute ago');
    expect(ageWords(en, NOW - 12, NOW)).toBe('12 seconds ago');
  });

  it('is never negative: a reading stamped ahead of this clock is current', () => {
    expect(ageSeconds(NOW + 30, NOW)).toBe(0);
    expect(ageWords(zh, NOW + 30, NOW)).toBe('刚刚');
  });

  it('puts the age into the balance and product notes, in Chinese without Latin words', () => {
    const age = ageWords(zh, NOW - 130, NOW);
    for (const key of ['fresh.balance.readAt', 'fresh.balance.refreshing', 'fresh.balance.notRenewed', 'fresh.product.refreshing', 'fresh.product.notRenewed'] as const) {
      const text = zh(key, { age });
      expect(text).toContain('2 分钟前');
      expect(text).not.toMatch(/\b[A-Za-z]{2,}\b/u);
    }
  });

  it('one threshold: a reading is old after DETAIL_FRESH_FOR_S seconds, not at them', () => {
    expect(DETAIL_FRESH_FOR_S).toBe(60);
    expect(readingIsOld(NOW - DETAIL_FRESH_FOR_S, NOW)).toBe(false);
    expect(readingIsOld(NOW - DETAIL_FRESH_FOR_S - 1, NOW)).toBe(true);
  });
});
