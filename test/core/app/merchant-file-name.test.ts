// Export file names name the merchant once there is more than one (contract §15.2), in ASCII.
import { describe, expect, it } from 'vitest';
import { fileNameSlug, withMerchantInFileName } from '../../../src/core/app/merchant-file-name';

describe('export file names with the merchant', () => {
  it('puts an ASCII profile name after the app prefix', () => {
    expect(withMerchantInFileName('procure-desk-cards-20261126-101010-3.xlsx', { name: 'Cards Shop', host: 'a.example.com' })).toBe('procure-desk-cards-shop-cards-20261126-101010-3.xlsx');
  });
  it('uses the merchant host when the name leaves nothing ASCII (a Chinese name)', () => {
    expect(withMerchantInFileName('procure-desk-spend-day.csv', { name: '视频会员', host: 'video.example.cn:8443' })).toBe('procure-desk-video.example.cn-8443-spend-day.csv');
  });
  it('changes nothing with one merchant, or when neither gives a usable word', () => {
    expect(withMerchantInFileName('procure-desk-cards-1.csv', null)).toBe('procure-desk-cards-1.csv');
    expect(withMerchantInFileName('procure-desk-cards-1.csv', { name: '商户', host: null })).toBe('procure-desk-cards-1.csv');
  });
  it('never lets a name put a path or a dot-file into the file name', () => {
    expect(fileNameSlug('../../etc/passwd')).toBe('etc-passwd');
    expect(fileNameSlug('...')).toBe('');
    expect(fileNameSlug('x'.repeat(100))).toHaveLength(40);
  });
});
