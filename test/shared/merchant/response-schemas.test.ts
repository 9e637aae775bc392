import { describe, expect, it } from 'vitest';
import {
  accountSchema,
  aftersaleCaseSchema,
  caseMessageSchema,
  catalogPageSchema,
  categoryListSchema,
  errorEnvelopeSchema,
  findRequestId,
  orderListSchema,
  orderSchema,
  productDetailSchema,
  purchaseTemplateSchema,
  responseEnvelopeSchema,
  subscriptionChangeSchema,
  successEnvelopeSchema,
} from '../../../src/shared/merchant';
import { caseMessageWire, caseWire, detailWire, orderWire, templateWire, without } from './fixtures';

describe('envelope (interface v1 §2.3)', () => {
  it('parses success and error envelopes and keeps the request id', () => {
    const ok = successEnvelopeSchema(accountSchema).safeParse({
      code: 0,
      message: 'success',
      requestId: 'req_0123456789abcdef01234567',
      data: { accountRef: 9, userId: '170001', nickname: '采购员', accessState: 'active', balance: 1000, currency: 'CNY', contractRevision: '1.0.2' },
    });
    expect(ok.success).toBe(true);
    const err = errorEnvelopeSchema.parse({ code: 404002, message: 'order not found', data: null, requestId: 'req_1' });
    expect(err.code).toBe(404002);
    expect(errorEnvelopeSchema.safeParse({ code: 0, message: '', data: null, requestId: 'r' }).success).toBe(false);
    expect(responseEnvelopeSchema.safeParse({ code: 0, message: 'x', data: {} }).success).toBe(false);
  });

  it('finds a request id in an otherwise malformed body', () => {
    expect(findRequestId({ requestId: 'req_x', code: 'oops' })).toBe('req_x');
    expect(findRequestId('<html>')).toBeNull();
    expect(findRequestId(null)).toBeNull();
    expect(findRequestId({ requestId: 5 })).toBeNull();
  });
});

describe('contract payloads parse', () => {
  it('account (1)', () => {
    const account = accountSchema.parse({ accountRef: 9, userId: '170001', nickname: '采购员', accessState: 'suspended', balance: 88.88, currency: 'CNY', contractRevision: '1.0.2' });
    expect(account.balance).toBe(8888);
  });

  it('categories (2) and catalog (3)', () => {
    const categories = categoryListSchema.parse({
      list: [
        { catalogRef: 1, name: '视频会员', parentRef: null, sort: 1, productCount: 3 },
        { catalogRef: 11, name: '腾讯视频', parentRef: 1, sort: 1, productCount: 3 },
      ],
      total: 2,
      page: 1,
      pageSize: 20,
    });
    expect(categories.list[1]?.parentRef).toBe(1);
    const page = catalogPageSchema.parse({
      list: [
        {
          productRef: 1001,
          catalogRef: 11,
          name: '腾讯视频VIP',
          productType: 'card',
          brand: null,
          availability: 'available',
          priceFrom: 19.9,
          variantCount: 2,
          revision: 1767225600,
          subscriptionState: 'unsubscribed',
          subscriptionExpiresAt: null,
        },
      ],
      total: 1,
      page: 1,
      pageSize: 20,
    });
    expect(page.list[0]?.priceFrom).toBe(1990);
  });

  it('product detail (4) with faceValue in fen', () => {
    const detail = productDetailSchema.parse(detailWire());
    expect(detail.variants[0]?.faceValue).toBe(2500);
    expect(detail.variants[0]?.price).toBe(1990);
    expect(productDetailSchema.safeParse({ ...detailWire(), variants: [] }).success).toBe(false);
  });

  it('template (5)', () => {
    const template = purchaseTemplateSchema.parse(templateWire());
    expect(template.purchaseFields.map((f) => f.fieldRef)).toEqual(['mobile', 'carrier']);
    expect(template.unitRule).toEqual({ min: 1, max: 10, step: 1 });
    const wire = templateWire();
    const fields = wire.purchaseFields as Record<string, unknown>[];
    expect(purchaseTemplateSchema.safeParse({ ...wire, purchaseFields: [fields[0], fields[0]] }).success).toBe(false);
    expect(purchaseTemplateSchema.safeParse({ ...wire, unitRule: { min: 5, max: 1, step: 1 } }).success).toBe(false);
  });

  it('subscriptions (6)', () => {
    const change = subscriptionChangeSchema.parse({ list: [{ productRef: 1001, subscriptionState: 'subscribed', subscriptionExpiresAt: 1767830400 }] });
    expect(change.list).toHaveLength(1);
  });

  it('order (7.4) with cards kept as strings, leading zeros intact', () => {
    const order = orderSchema.parse(orderWire());
    expect(order.card_list?.[0]?.card_no).toBe('0012345678901234567890');
    expect(order.card_list?.[0]?.card_password).toBe('000987');
    expect(orderSchema.safeParse({ ...orderWire(), card_list: [{ card_no: 12345, card_password: '1', expiresAt: null }] }).success).toBe(false);
    const list = orderListSchema.parse({ list: [{ ...orderWire(), card_list: null }], total: 1, page: 1, pageSize: 20 });
    expect(list.list[0]?.card_list).toBeNull();
  });

  it('after-sales case (9.3) and message (9.2)', () => {
    const found = aftersaleCaseSchema.parse(caseWire());
    expect(found.messages.map((m) => m.sender)).toEqual(['buyer', 'merchant']);
    expect(caseMessageSchema.parse(caseMessageWire()).clientMessageRef).toBeNull();
  });

  it('rejects wrong types and missing fields', () => {
    expect(orderSchema.safeParse({ ...orderWire(), createdAt: '1767225600' }).success).toBe(false);
    expect(orderSchema.safeParse({ ...orderWire(), createdAt: 1767225600.5 }).success).toBe(false);
    expect(orderSchema.safeParse(without(orderWire(), 'allowedActions')).success).toBe(false);
    expect(orderSchema.safeParse({ ...orderWire(), platformOrderRef: 20260101000123 }).success).toBe(false);
  });
});

describe('unknown fields are tolerated', () => {
  it('keeps extra fields at every level without failing', () => {
    const wire = orderWire();
    const refunds = wire.refunds as Record<string, unknown>[];
    const order = orderSchema.parse({ ...wire, loyaltyPoints: 5, refunds: refunds.map((r) => ({ ...r, channel: 'balance' })) });
    expect(order).toMatchObject({ loyaltyPoints: 5 });
    expect(order.refunds[0]).toMatchObject({ channel: 'balance' });
    const detail = productDetailSchema.parse({ ...detailWire(), tags: ['热卖'], variants: [{ ...(detailWire().variants as Record<string, unknown>[])[0], sku: 'X' }] });
    expect(detail).toMatchObject({ tags: ['热卖'] });
    expect(detail.variants[0]).toMatchObject({ sku: 'X' });
    expect(aftersaleCaseSchema.safeParse({ ...caseWire(), priority: 'high' }).success).toBe(true);
    expect(purchaseTemplateSchema.safeParse({ ...templateWire(), hint: 'x', unitRule: { min: 1, max: 2, step: 1, unit: '张' } }).success).toBe(true);
  });
});

describe('unknown enum values are kept raw', () => {
  it('parses unknown states and actions as the strings received', () => {
    const order = orderSchema.parse({ ...orderWire(), state: 'shipped', allowedActions: ['refund', 'escalate'], productType: 'bundle' });
    expect(order.state).toBe('shipped');
    expect(order.allowedActions).toEqual(['refund', 'escalate']);
    const found = aftersaleCaseSchema.parse({ ...caseWire(), state: 'archived', category: 'fraud' });
    expect(found.state).toBe('archived');
    const template = purchaseTemplateSchema.parse({ ...templateWire(), entryMode: 'perAccount' });
    expect(template.entryMode).toBe('perAccount');
  });
});
