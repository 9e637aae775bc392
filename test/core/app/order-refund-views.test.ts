// An order's refunds as the screens show them (contract §7.3): our request is "pending" from the
// moment it is recorded, stays pending once accepted until a merchant detail lists it (never lost in
// between), is replaced by the merchant's own record then, and a state this build does not know is
// kept raw, counted neither as pending nor as money back. A request the merchant refused keeps its code.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Order } from '../../../src/shared/merchant/order';
import { createOrderRefundViews } from '../../../src/core/app/order-refund-views';
import { RedactingLogger } from '../../../src/core/logging/redacting-logger';
import { insertIntent } from '../../../src/core/orders/order-intent-store';
import { applyOrderDetail } from '../../../src/core/orders/order-store';
import { finishRefundIntent, insertRefundIntent } from '../../../src/core/orders/refund-intent-store';
import { MemorySecretStore } from '../../../src/core/secrets/memory-secret-store';
import { CardCipher } from '../../../src/core/vault/card-cipher';
import { createMigratedDatabase, type TempDatabase } from '../db/temp-database';

const REF = 'o_refund_view_1';
const NOW = 1_790_000_000;
let temp: TempDatabase;
let cipher: CardCipher;
let revision = 1;

function merchantSays(change: Partial<Order>): void {
  const order: Order = {
    clientOrderRef: REF,
    platformOrderRef: '2026112800000042',
    productRef: 1001,
    variantRef: 0,
    productName: '爱奇艺黄金会员',
    variantTitle: '月卡',
    productType: 'card',
    units: 1,
    unitPrice: 9250,
    totalAmount: 9250,
    refundedAmount: 0,
    state: 'completed',
    allowedActions: ['refund'],
    revision: revision++,
    failureReason: null,
    verificationHint: null,
    createdAt: NOW,
    updatedAt: NOW + revision,
    completedAt: NOW,
    orderCallbackUrl: null,
    imageUrl: null,
    entryCount: 0,
    refunds: [],
    card_list: null,
    ...change,
  };
  applyOrderDetail({ db: temp.db, cipher, logger: new RedactingLogger({ sink: () => undefined }), now: NOW + revision }, order, 'orderDetail');
}

const money = { totalFen: 9250, refundedFen: 0 };

beforeEach(async () => {
  temp = createMigratedDatabase();
  cipher = await CardCipher.open(new MemorySecretStore());
  revision = 1;
  insertIntent(
    temp.db,
    { clientOrderRef: REF, batchId: null, productRef: 1001, variantRef: 0, productType: 'card', units: 1, purchaseSchemaRevision: null, purchaseEntries: [], optionLabels: [], orderCallbackUrl: null, imageUrl: null, confirmedUnitPriceFen: 9250 },
    NOW,
  );
  merchantSays({});
});

afterEach(() => {
  cipher.dispose();
  temp.dispose();
});

describe('order refunds as the screens show them', () => {
  it('a request is pending from the moment it is recorded, for everything refundable when no amount was given', () => {
    const views = createOrderRefundViews(temp.db);
    expect(views.summaryOf(REF, money)).toEqual({ refundPendingFen: 0, refundUnknownStates: [] });
    insertRefundIntent(temp.db, { clientRefundRef: 'r_all', clientOrderRef: REF, amountFen: null, reason: '卡密无法使用' }, NOW + 10);
    expect(views.summaryOf(REF, money)).toEqual({ refundPendingFen: 9250, refundUnknownStates: [] });
    expect(views.refundsOf(REF, money)).toEqual([expect.objectContaining({ refundRef: null, clientRefundRef: 'r_all', amountFen: 9250, state: 'pending', requestErrorCode: null })]);
  });

  it('an accepted request stays pending until the merchant’s detail lists it, then the merchant’s record replaces it', () => {
    const views = createOrderRefundViews(temp.db);
    insertRefundIntent(temp.db, { clientRefundRef: 'r_part', clientOrderRef: REF, amountFen: 1850, reason: '部分卡密无效' }, NOW + 10);
    temp.db.prepare("UPDATE refund_intents SET status = 'sending'").run();
    finishRefundIntent(temp.db, 'r_part', 'accepted', { code: null, requestId: 'req-1' }, NOW + 11);
    // The refresh after the request failed: the merchant's detail has not been read since.
    expect(views.summaryOf(REF, money).refundPendingFen).toBe(1850);

    const pending = { refundRef: 'RF1', clientRefundRef: 'r_part', amount: 1850, state: 'pending', reason: '部分卡密无效', merchantNote: null, createdAt: NOW + 11, resolvedAt: null };
    merchantSays({ allowedActions: [], refunds: [pending] });
    expect(views.refundsOf(REF, money)).toEqual([expect.objectContaining({ refundRef: 'RF1', amountFen: 1850, state: 'pending' })]);
    expect(views.summaryOf(REF, money).refundPendingFen).toBe(1850);

    merchantSays({ refundedAmount: 1850, refunds: [{ ...pending, state: 'succeeded', resolvedAt: NOW + 20 }] });
    expect(views.summaryOf(REF, { totalFen: 9250, refundedFen: 1850 })).toEqual({ refundPendingFen: 0, refundUnknownStates: [] });
    expect(views.refundsOf(REF, money)).toEqual([expect.objectContaining({ refundRef: 'RF1', state: 'succeeded', resolvedAt: NOW + 20 })]);
  });

  it('a refund state this build does not know is kept raw: neither pending nor money back', () => {
    const views = createOrderRefundViews(temp.db);
    merchantSays({ refunds: [{ refundRef: 'RF2', clientRefundRef: 'r_other', amount: 500, state: 'under_review', reason: '其他', merchantNote: null, createdAt: NOW + 5, resolvedAt: null }] });
    expect(views.summaryOf(REF, money)).toEqual({ refundPendingFen: 0, refundUnknownStates: ['under_review'] });
  });

  it('a request the merchant refused when it was sent is rejected with the merchant’s code, not pending', () => {
    const views = createOrderRefundViews(temp.db);
    insertRefundIntent(temp.db, { clientRefundRef: 'r_refused', clientOrderRef: REF, amountFen: 100, reason: '太晚了' }, NOW + 10);
    temp.db.prepare("UPDATE refund_intents SET status = 'sending'").run();
    finishRefundIntent(temp.db, 'r_refused', 'rejected', { code: '409103', requestId: 'req-2' }, NOW + 11);
    expect(views.summaryOf(REF, money).refundPendingFen).toBe(0);
    expect(views.refundsOf(REF, money)).toEqual([expect.objectContaining({ state: 'rejected', requestErrorCode: '409103', merchantNote: null, resolvedAt: NOW + 11 })]);
  });
});
