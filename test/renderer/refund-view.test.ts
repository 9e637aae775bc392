// What an order's refunds say beside its state and amount: in progress from the request (core's
// pending amount, or the request being sent, everything refundable when no amount was given), the
// money back as all or part of the order, and an unknown state raw, never counted as money back.
import { describe, expect, it } from 'vitest';
import { refundNotes } from '../../src/renderer/src/lib/refund-view';
import { translate } from '../../src/renderer/src/i18n/translate';

const completed = { totalFen: 9250, refundedFen: 0, refundPendingFen: 0, refundUnknownStates: [] };

describe('refund notes of an order', () => {
  it('says nothing for an order with no refund', () => {
    expect(refundNotes(completed)).toEqual([]);
  });

  it('is in progress from the click: the request being sent counts before core has recorded it', () => {
    expect(refundNotes(completed, { amountFen: null })).toEqual([{ kind: 'pending', amountFen: 9250 }]);
    expect(refundNotes(completed, { amountFen: 1850 })).toEqual([{ kind: 'pending', amountFen: 1850 }]);
    // Once core has it, core's figure is the one shown.
    expect(refundNotes({ ...completed, refundPendingFen: 1850 }, { amountFen: 1850 })).toEqual([{ kind: 'pending', amountFen: 1850 }]);
  });

  it('says refunded for all of the order and partly refunded, with the total, for a part', () => {
    expect(refundNotes({ ...completed, refundedFen: 9250 })).toEqual([{ kind: 'refunded', amountFen: 9250 }]);
    expect(refundNotes({ ...completed, refundedFen: 1850 })).toEqual([{ kind: 'partlyRefunded', amountFen: 1850, totalFen: 9250 }]);
    expect(refundNotes({ ...completed, refundedFen: 1850, refundPendingFen: 2000 })).toEqual([
      { kind: 'pending', amountFen: 2000 },
      { kind: 'partlyRefunded', amountFen: 1850, totalFen: 9250 },
    ]);
  });

  it('keeps an unknown refund state raw, and it is never money back', () => {
    expect(refundNotes({ ...completed, refundUnknownStates: ['under_review'] })).toEqual([{ kind: 'unknown', raw: 'under_review' }]);
  });

  it('words them in Chinese and English', () => {
    expect(translate('zh-CN', 'refund.tag.partlyRefunded', { amount: '¥18.50', total: '¥92.50' })).toBe('部分退款 ¥18.50（共 ¥92.50）');
    expect(translate('zh-CN', 'refund.tag.pending', { amount: '¥92.50' })).toBe('退款处理中 ¥92.50');
    expect(translate('en', 'refund.tag.partlyRefunded', { amount: '¥18.50', total: '¥92.50' })).toBe('Partly refunded ¥18.50 of ¥92.50');
  });
});
