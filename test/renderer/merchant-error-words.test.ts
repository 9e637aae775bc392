// A merchant error's words have one home: the order dialog's titles (problem.<meaning>.title in the
// renderer's messages) are the very words core writes into a batch's results file, in both languages,
// with the code beside them; an unknown code is "something went wrong" with its number, never hidden.
import { describe, expect, it } from 'vitest';
import { MERCHANT_ERROR } from '../../src/shared/merchant-error-codes';
import { MERCHANT_PROBLEMS, MERCHANT_PROBLEM_TITLES, merchantErrorWords, merchantProblemOf } from '../../src/shared/merchant-error-words';
import { translate } from '../../src/renderer/src/i18n/translate';

describe('merchant error words', () => {
  it('the screens’ titles are the shared words, in both languages', () => {
    for (const problem of MERCHANT_PROBLEMS) {
      expect(translate('zh-CN', `problem.${problem}.title`)).toBe(MERCHANT_PROBLEM_TITLES['zh-CN'][problem]);
      expect(translate('en', `problem.${problem}.title`)).toBe(MERCHANT_PROBLEM_TITLES.en[problem]);
    }
  });

  it('words a code with the code beside it', () => {
    expect(merchantProblemOf(MERCHANT_ERROR.BALANCE_INSUFFICIENT)).toBe('balance');
    expect(merchantErrorWords(422103, 'zh-CN')).toBe('余额不足（商户错误码 422103）');
    expect(merchantErrorWords(422103, 'en')).toBe('Not enough balance (merchant code 422103)');
    expect(merchantErrorWords(422102, 'zh-CN')).toBe('库存不足（商户错误码 422102）');
    expect(merchantErrorWords(429999, 'zh-CN')).toBe('请求过于频繁（商户错误码 429999）');
    expect(merchantErrorWords(422199, 'zh-CN')).toBe('出现问题（商户错误码 422199）');
  });
});
